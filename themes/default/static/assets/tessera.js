// Progressive enhancements of the default theme. Every page works without this script.
const lang = document.documentElement.lang || undefined;
const rtl = document.documentElement.dir === "rtl";
const calm = matchMedia("(prefers-reduced-motion: reduce)");

// Dismissible banners: the close button appears, and a dismissal is remembered in this browser
// under the banner's key (its `key:`, else the page's address and the title).
for (const banner of document.querySelectorAll("[data-banner]")) {
  const key = "tessera.dismissed." + banner.dataset.banner;
  const item = banner.closest("li") || banner;
  let remembered = false;
  try { remembered = localStorage.getItem(key) === "1"; } catch (_) {}
  if (remembered) { item.hidden = true; continue; }
  const close = banner.querySelector(".banner-close");
  if (!close) continue;
  close.hidden = false;
  close.addEventListener("click", () => {
    item.hidden = true;
    try { localStorage.setItem(key, "1"); } catch (_) {}
    document.getElementById("main")?.focus();
  });
}

// Relative dates ("2 hours ago") were written at build time; keep them true as time passes.
// The unit rule is the build's, so a fresh page reads the same either way: within a day, a date
// with a time counts seconds, minutes or hours; otherwise calendar days: days under a week, then
// weeks under 30 days, months under 365, then years.
function relativeUnit(date, now, hasTime) {
  const s = (date - now) / 1000, a = Math.abs(s);
  if (hasTime && a < 86400) {
    if (a < 60) return [Math.round(s), "second"];
    if (a < 3600) return [Math.round(s / 60), "minute"];
    return [Math.round(s / 3600), "hour"];
  }
  const day = (t) => { const d = new Date(t); return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86400000; };
  const days = day(date) - day(now), n = Math.abs(days);
  if (n < 7) return [days, "day"];
  if (n < 30) return [Math.round(days / 7), "week"];
  if (n < 365) return [Math.round(days / 30.4375), "month"];
  return [Math.round(days / 365.25), "year"];
}
function refreshDates() {
  if (!window.Intl || !Intl.RelativeTimeFormat) return;
  let format;
  try { format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" }); } catch (_) { return; }
  const now = Date.now();
  for (const time of document.querySelectorAll("time[data-relative]")) {
    const value = time.dateTime;
    const date = Date.parse(value.includes("T") ? value : value + "T00:00:00");
    if (Number.isNaN(date)) continue;
    const [count, unit] = relativeUnit(date, now, value.includes("T"));
    time.textContent = format.format(count, unit);
  }
}
refreshDates();
setInterval(refreshDates, 60000);

// Carousels and scrolling rows: previous and next buttons that scroll by one card, disabled at the ends.
function button(label, flip) {
  const b = document.createElement("button");
  b.type = "button";
  b.setAttribute("aria-label", label);
  b.innerHTML = `<span class="icon icon--arrow${flip ? " icon--flip" : ""}" aria-hidden="true"></span>`;
  return b;
}
let count = 0;
for (const row of document.querySelectorAll("[data-scroller]")) {
  const list = row.querySelector("ul");
  if (!list) continue;
  // Name a carousel by its header's title alone, not the whole header.
  if (row.hasAttribute("data-label-title")) {
    const title = row.parentElement.querySelector(".section-title");
    if (title) { title.id ||= "carousel-title-" + ++count; row.setAttribute("aria-labelledby", title.id); }
  }
  const previous = button(row.dataset.previous || "Previous", true);
  const next = button(row.dataset.next || "Next", false);
  const controls = document.createElement("div");
  controls.className = "scroller-controls";
  controls.append(previous, next);
  const header = row.parentElement.querySelector(".section-header");
  if (header && row.classList.contains("carousel")) header.append(controls);
  else row.before(controls);

  const step = () => {
    const item = list.children[0], gap = parseFloat(getComputedStyle(list).columnGap) || 0;
    return item ? item.getBoundingClientRect().width + gap : row.clientWidth * 0.8;
  };
  const scroll = (direction) => row.scrollBy({ left: direction * step() * (rtl ? -1 : 1), behavior: calm.matches ? "auto" : "smooth" });
  previous.addEventListener("click", () => scroll(-1));
  next.addEventListener("click", () => scroll(1));
  // A button is disabled when the card at its end is fully in view; both hide when every card is.
  const update = () => {
    const view = row.getBoundingClientRect();
    const first = list.firstElementChild?.getBoundingClientRect(), last = list.lastElementChild?.getBoundingClientRect();
    if (!first || !last) { controls.hidden = true; return; }
    const inView = (box) => box.left >= view.left - 1 && box.right <= view.right + 1;
    previous.disabled = inView(first);
    next.disabled = inView(last);
    controls.hidden = previous.disabled && next.disabled;
    if (document.activeElement === next && next.disabled) previous.focus();
    if (document.activeElement === previous && previous.disabled) next.focus();
  };
  row.addEventListener("scroll", update, { passive: true });
  addEventListener("resize", update);
  update();
}

// Light or dark: the system's choice, or the reader's from the header's toggle. A choice is
// remembered only while it differs from the system's, so choosing the system's scheme again
// goes back to following it. The head applies a remembered choice before the first paint.
// The browser's bar follows the scheme (the HTML checker in use refuses `media` on <meta>).
const themeColor = document.querySelector('meta[name="theme-color"][data-dark]');
const systemDark = matchMedia("(prefers-color-scheme: dark)");
const schemeToggle = document.querySelector("[data-color-scheme-toggle]");
const isDark = () => (document.documentElement.dataset.colorScheme || (systemDark.matches ? "dark" : "light")) === "dark";
const paint = () => {
  if (themeColor) themeColor.content = isDark() ? themeColor.dataset.dark : themeColor.dataset.light;
  schemeToggle?.setAttribute("aria-pressed", String(isDark()));
};
if (schemeToggle) {
  schemeToggle.hidden = false;
  schemeToggle.addEventListener("click", () => {
    const chosen = isDark() ? "light" : "dark";
    const root = document.documentElement;
    if (chosen === (systemDark.matches ? "dark" : "light")) delete root.dataset.colorScheme;
    else root.dataset.colorScheme = chosen;
    try {
      if (root.dataset.colorScheme) localStorage.setItem("tessera-color-scheme", chosen);
      else localStorage.removeItem("tessera-color-scheme");
    } catch (_) {}
    paint();
  });
}
paint();
systemDark.addEventListener?.("change", paint);

// Code blocks: a button copies the code (the line numbers are not part of it) where the
// browser lets a page write to the clipboard.
if (navigator.clipboard && window.isSecureContext) {
  for (const button of document.querySelectorAll(".code-copy")) {
    const code = button.parentElement.querySelector("pre code");
    if (!code) continue;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const copy = code.cloneNode(true);
      for (const number of copy.querySelectorAll(".ln")) number.remove();
      try {
        await navigator.clipboard.writeText(copy.textContent);
        button.textContent = button.dataset.copied || label;
        button.dataset.done = "";
        setTimeout(() => { button.textContent = label; delete button.dataset.done; }, 2000);
      } catch (_) {}
    });
  }
}

// Search: the header's link (or "/", or Ctrl-K) opens the search dialog, which the search
// script makes; nothing of it is fetched before. Without the script, the link leads to the
// search page.
const searchLink = document.querySelector("[data-search-open]");
const canSearch = !!(window.Intl && Intl.Segmenter && window.HTMLDialogElement);
if (searchLink && canSearch) {
  searchLink.hidden = false;
  let search;
  const openSearch = () => {
    search = search || import(searchLink.dataset.searchScript);
    search.then((module) => module.openDialog(searchLink)).catch(() => {
      if (!searchLink.getAttribute("href").startsWith("#")) location.href = searchLink.href;
    });
  };
  searchLink.addEventListener("click", (event) => { event.preventDefault(); openSearch(); });
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest && event.target.closest("input, textarea, select, [contenteditable]");
    if ((event.key === "/" && !typing) || (event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey)) {
      if (document.getElementById("search-dialog")?.open) return;
      event.preventDefault();
      openSearch();
    }
  });
}
const searchPage = document.querySelector("[data-search-page]");
if (searchPage && canSearch) {
  import(searchPage.dataset.searchScript).then((module) => module.attach(searchPage)).catch(() => {
    const status = searchPage.querySelector("[data-search-status]");
    if (status) status.textContent = searchPage.dataset.searchUnavailable;
  });
}
