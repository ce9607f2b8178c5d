// Tessera's site search, in the reader's browser: nothing is fetched until the reader searches.
// The index is the one `tessera build` writes (search/<lang>/: meta.json, terms/, docs/,
// filters.json); its words are read here exactly as the build read the pages (the analyzer's
// rules come from meta.json), so a French query for "chevaux" finds a page about a "cheval".

const fetched = new Map();
function json(url, fresh) {
  if (!fetched.has(url)) {
    fetched.set(url, fetch(url, fresh ? { cache: "no-cache" } : undefined).then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.json();
    }));
  }
  return fetched.get(url);
}

// Words, folding and stemming: the build's `SearchAnalyzer`, rule for rule.
export class Analyzer {
  constructor(meta) {
    const a = meta.analyzer;
    this.passes = a.stemmer;
    this.stopWords = new Set(a.stopWords);
    this.marks = a.marks;
    this.letters = a.letters;
    this.segmenter = new Intl.Segmenter(meta.language, { granularity: "word" });
  }
  words(text) {
    const words = [];
    for (const part of this.segmenter.segment(text)) if (part.isWordLike) words.push(part.segment);
    return words;
  }
  fold(word) {
    if (/^[a-z0-9]*$/.test(word)) return word;
    let out = "";
    for (const c of word.toLowerCase().normalize("NFD")) {
      const code = c.codePointAt(0);
      if (this.marks.some(([low, high]) => code >= low && code <= high)) continue;
      out += c in this.letters ? this.letters[c] : c;
    }
    return out.normalize("NFC");
  }
  stem(word) {
    for (const pass of this.passes) {
      const scalars = [...word];
      for (const [affix, replacement, keep] of pass.rules) {
        const length = [...affix].length;
        if (scalars.length - length < keep) continue;
        if (pass.prefix ? word.startsWith(affix) : word.endsWith(affix)) {
          word = pass.prefix ? replacement + scalars.slice(length).join("") : scalars.slice(0, scalars.length - length).join("") + replacement;
          break;
        }
      }
    }
    return word;
  }
  // The terms of a text, as the build indexed them.
  terms(text) {
    const terms = [];
    for (const word of this.words(text)) {
      const folded = this.fold(word);
      if (folded && !this.stopWords.has(folded)) terms.push(this.stem(folded));
    }
    return terms;
  }
}

// One language's index.
export class Index {
  constructor(base, language) {
    this.language = language;
    this.folder = `${base}search/${language}/`;
  }
  async meta() {
    if (!this.loaded) {
      this.loaded = json(this.folder + "meta.json", true).then((meta) => {
        this.analyzer = new Analyzer(meta);
        this.version = meta.version + "." + meta.build;
        return meta;
      });
    }
    return this.loaded;
  }
  url(path) { return `${this.folder}${path}?v=${this.version}`; }

  // The shard that holds `term`: the longest prefix of it among the shards'.
  shardOf(meta, term) {
    let best = -1, length = 0;
    meta.shards.forEach((prefix, index) => {
      if (prefix.length >= length && term.startsWith(prefix)) { best = index; length = prefix.length; }
    });
    return best;
  }

  // Pages and scores of one term, or of every term that starts with `prefix`.
  async postings(meta, term, prefix) {
    const shards = new Set();
    const own = this.shardOf(meta, term);
    if (own >= 0) shards.add(own);
    if (prefix) {
      meta.shards.forEach((p, index) => { if (p.startsWith(prefix) || prefix.startsWith(p)) shards.add(index); });
    }
    const lists = [];
    for (const index of [...shards].slice(0, 6)) {
      const shard = await json(this.url(`terms/${index}.json`));
      for (const [word, list] of Object.entries(shard)) {
        if (word === term || (prefix && word.startsWith(prefix))) lists.push([word, list]);
      }
    }
    const pages = new Map();
    const rarity = (list) => Math.log(1 + (meta.pages - list.length + 0.5) / (list.length + 0.5));
    // A longer word the typed one starts counts less than the word itself, and never more for
    // being rarer (a rare "componentview" must not outrank "component").
    const exact = lists.find(([word]) => word === term);
    for (const [word, list] of lists) {
      let page = 0;
      const weight = word === term ? rarity(list) : 0.8 * Math.min(rarity(list), exact ? rarity(exact[1]) : rarity(list));
      for (const value of list) {
        page += Math.floor(value / 64);
        const score = (value % 64) * weight;
        if (!pages.has(page) || pages.get(page).score < score) pages.set(page, { score, word });
      }
    }
    return pages;
  }

  // Results for `query`, best first: every word must be on the page (the last as a prefix while
  // it is being typed). `filters`: { section, tag }.
  async search(query, filters = {}) {
    const meta = await this.meta();
    const a = this.analyzer;
    const words = a.words(query).map((w) => a.fold(w)).filter((w) => w && !a.stopWords.has(w));
    if (!words.length) return { meta, results: [], terms: [] };
    const typing = !/\s$/.test(query);
    let scores = null;
    const matched = new Set();
    for (const [index, word] of words.entries()) {
      const prefix = typing && index === words.length - 1 && [...word].length >= 2 ? word : null;
      const pages = await this.postings(meta, a.stem(word), prefix);
      const next = new Map();
      for (const [page, hit] of pages) {
        if (scores && !scores.has(page)) continue;
        next.set(page, (scores ? scores.get(page) : 0) + hit.score);
        matched.add(hit.word);
      }
      scores = next;
      if (!scores.size) break;
    }
    let pages = [...scores.entries()];
    if (filters.section || filters.tag) {
      const f = await json(this.url("filters.json"));
      const allowed = (map, key) => new Set(key ? map[key] || [] : pages.map(([p]) => p));
      const sections = allowed(f.sections, filters.section), tags = allowed(f.tags, filters.tag);
      pages = pages.filter(([p]) => sections.has(p) && tags.has(p));
    }
    pages.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    return { meta, terms: [...matched], results: pages.map(([page, score]) => ({ page, score, data: () => this.page(meta, page) })) };
  }

  async page(meta, number) {
    const chunk = await json(this.url(`docs/${Math.floor(number / meta.pagesPerChunk)}.json`));
    return chunk[number % meta.pagesPerChunk];
  }

  // The words around the first match in the page's text (from its page JSON), as text and
  // marked ranges; the summary when the page has no JSON.
  async excerpt(doc, terms) {
    let text = doc.summary || "";
    if (doc.json) {
      try {
        const page = await json(doc.json);
        const html = (page.body || []).map((block) => block.html || "").join("\n");
        const body = new DOMParser().parseFromString(html, "text/html").body;
        // Heading anchors and hidden marks are not text; blocks end with a space.
        for (const hidden of body.querySelectorAll(".heading-anchor, [aria-hidden=true], button")) hidden.remove();
        for (const block of body.querySelectorAll("p, li, dt, dd, h1, h2, h3, h4, h5, h6, pre, td, th, caption, div, section, article, aside, header, footer, blockquote, figure, figcaption, details, summary")) block.append(" ");
        for (const lineBreak of body.querySelectorAll("br, hr")) lineBreak.replaceWith(" ");
        text = body.textContent.replace(/\s+/g, " ").trim() || text;
      } catch (_) { /* the summary stands */ }
    }
    const a = this.analyzer, wanted = new Set(terms);
    const isMatch = (word) => {
      const folded = a.fold(word);
      return wanted.has(a.stem(folded)) || wanted.has(folded) || [...wanted].some((t) => folded.startsWith(t));
    };
    const parts = [...a.segmenter.segment(text)];
    const first = parts.findIndex((p) => p.isWordLike && isMatch(p.segment));
    const start = Math.max(0, first - 16), end = Math.min(parts.length, (first < 0 ? 0 : first) + 40);
    const pieces = parts.slice(first < 0 ? 0 : start, end).map((p) => ({ text: p.segment, mark: p.isWordLike && isMatch(p.segment) }));
    return { before: first > 16, after: end < parts.length, pieces };
  }
}

const indexes = new Map();
function indexOf(base, language) {
  const key = base + "|" + language;
  if (!indexes.has(key)) indexes.set(key, new Index(base, language));
  return indexes.get(key);
}

// Strings of the dialog when the index has none of the theme's (`search.*` of its tables).
const fallbackStrings = {
  title: "Search this site", label: "Search", placeholder: "Search", section: "Section", allSections: "All sections",
  tag: "Tag", allTags: "All tags", language: "Language",
  close: "Close search", none: "No results for “[query]”", one: "1 result", many: "[count] results",
  unavailable: "Search is not available right now.", hint: "Type to search. Use the arrow keys to move between results.",
};

function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value; else if (key === "text") node.textContent = value; else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// The search dialog, made when a reader first opens it (pages do not carry it): the header
// link's data says where the index is; the index says the words, in the page's language.
let dialog;
export async function openDialog(link) {
  if (!dialog) {
    const index = indexOf(link.dataset.searchBase, link.dataset.searchLanguage);
    let meta = null;
    try { meta = await index.meta(); } catch (_) { /* said in the status line */ }
    const s = { ...fallbackStrings, ...(meta && meta.strings) };
    const input = element("input", { type: "search", name: "q", autocomplete: "off", spellcheck: "false", placeholder: s.placeholder, "aria-describedby": "search-dialog-hint", "aria-controls": "search-dialog-results" });
    const close = element("button", { class: "search-close", type: "button" }, element("span", { class: "icon icon--close", "aria-hidden": "true" }), element("span", { class: "visually-hidden", text: s.close }));
    const form = element("form", { class: "search-form", role: "search", method: "get", action: link.getAttribute("href").startsWith("#") ? "" : link.getAttribute("href") },
      element("label", { class: "search-field" }, element("span", { class: "icon icon--search", "aria-hidden": "true" }), element("span", { class: "visually-hidden", text: s.label }), input),
      close,
      element("div", { class: "search-filters", "data-search-filters": "", hidden: "" },
        element("select", { class: "search-filter search-section", name: "section", "data-search-section": "", hidden: "", "aria-label": s.section }, element("option", { value: "", text: s.allSections })),
        element("select", { class: "search-filter search-tag", name: "tag", "data-search-tag": "", hidden: "", "aria-label": s.tag }, element("option", { value: "", text: s.allTags })),
        element("select", { class: "search-filter search-language", name: "lang", "data-search-languages": "", hidden: "", "aria-label": s.language })));
    dialog = element("dialog", { class: "search-dialog", id: "search-dialog", "aria-labelledby": "search-dialog-title" },
      element("h2", { class: "visually-hidden", id: "search-dialog-title", text: s.title }),
      form,
      element("p", { class: "visually-hidden", id: "search-dialog-hint", text: s.hint }),
      element("p", { class: "search-status", role: "status", "data-search-status": "" }),
      element("ol", { class: "search-results", id: "search-dialog-results", "data-search-results": "" }));
    document.body.append(dialog);
    close.addEventListener("click", () => dialog.close());
    // A click on the backdrop (the dialog element itself, outside its box) closes it.
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    attach(dialog, { index, strings: s, base: link.dataset.searchBase, language: link.dataset.searchLanguage });
    if (!meta) dialog.querySelector("[data-search-status]").textContent = s.unavailable;
  }
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("input[type=search]").focus();
}

// The dialog or the search page: field, filters, results, announcements. The search page gives
// its strings as `data-search-*` attributes; the dialog gives its index, strings, base and language.
export function attach(root, given = {}) {
  const base = given.base ?? root.dataset.searchBase, language = given.language ?? (root.dataset.searchLanguage || document.documentElement.lang);
  // The index searched: the page's language, or the one the reader picks.
  let index = given.index || indexOf(base, language);
  const input = root.querySelector("input[type=search]");
  const list = root.querySelector("[data-search-results]");
  const status = root.querySelector("[data-search-status]");
  const section = root.querySelector("[data-search-section]");
  const tag = root.querySelector("[data-search-tag]");
  const languages = root.querySelector("[data-search-languages]");
  const filters = root.querySelector("[data-search-filters]");
  const d = root.dataset;
  const strings = given.strings || { none: d.searchNone, one: d.searchOne, many: d.searchMany, unavailable: d.searchUnavailable };
  const shown = 10, eager = 4;
  const params = new URLSearchParams(location.search);
  let run = 0;

  // A filter's choices after its first ("All …"), kept chosen when the new list has it; shown
  // only when there is a choice to make.
  function choices(select, options, least, chosen) {
    if (!select) return;
    const keep = chosen ?? select.value;
    const first = select.querySelector("option[value='']");
    select.replaceChildren(...(first ? [first] : []), ...options.map(([value, text]) => element("option", { value, text })));
    select.value = options.some(([value]) => value === keep) ? keep : (first ? "" : select.options[0]?.value ?? "");
    select.hidden = options.length < least;
  }
  function showFilters(meta, chosen = {}) {
    choices(section, meta.sections.map((s) => [s.name, s.title]), 2, chosen.section);
    choices(tag, (meta.tags || []).map((t) => [t.name, t.name]), 1, chosen.tag);
    if (filters) filters.hidden = [section, tag, languages].every((select) => !select || select.hidden);
  }
  const ready = index.meta().then((meta) => {
    choices(languages, (meta.languages || []).map((l) => [l.code, l.name]), 2, language);
    showFilters(meta, { section: params.get("section"), tag: params.get("tag") });
  }).catch(() => { status.textContent = strings.unavailable; });

  async function update() {
    const query = input.value;
    const mine = ++run;
    if (!query.trim()) {
      list.replaceChildren();
      status.textContent = "";
      return;
    }
    let found;
    try {
      found = await index.search(query, { section: section && section.value, tag: tag && tag.value });
    } catch (_) {
      status.textContent = strings.unavailable;
      return;
    }
    if (mine !== run) return;
    const { results, terms } = found;
    status.textContent = results.length === 0
      ? strings.none.replace("[query]", query.trim())
      : (results.length === 1 ? strings.one : strings.many).replace("[count]", new Intl.NumberFormat(language).format(results.length));
    const items = [];
    for (const result of results.slice(0, shown)) {
      const doc = await result.data();
      if (mine !== run) return;
      const item = document.createElement("li");
      item.className = "search-result";
      if (index.language !== language) item.lang = index.language;
      const link = document.createElement("a");
      link.href = doc.url;
      link.className = "search-result-title";
      link.textContent = doc.title || doc.url;
      const meta = document.createElement("p");
      meta.className = "search-result-meta";
      const sectionTitle = found.meta.sections.find((s) => s.name === doc.section)?.title;
      if (sectionTitle) { const s = document.createElement("span"); s.textContent = sectionTitle; meta.append(s); }
      if (doc.date) { const t = document.createElement("time"); t.dateTime = doc.date; t.textContent = doc.dateText || doc.date.slice(0, 10); meta.append(t); }
      const excerpt = document.createElement("p");
      excerpt.className = "search-result-excerpt";
      item.append(link, meta, excerpt);
      items.push(item);
      // The words around the match come from the page's JSON: fetched for the first results at
      // once, for the others when they scroll into view.
      const fill = () => index.excerpt(doc, terms).then((e) => {
        if (mine !== run) return;
        if (e.before) excerpt.append("… ");
        for (const piece of e.pieces) {
          if (piece.mark) { const m = document.createElement("mark"); m.textContent = piece.text; excerpt.append(m); } else excerpt.append(piece.text);
        }
        if (e.after) excerpt.append(" …");
      });
      if (items.length <= eager || !window.IntersectionObserver) fill();
      else {
        const seen = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) { seen.disconnect(); fill(); } });
        seen.observe(item);
      }
    }
    list.replaceChildren(...items);
  }

  let timer;
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, 120); });
  section?.addEventListener("change", update);
  tag?.addEventListener("change", update);
  languages?.addEventListener("change", async () => {
    index = indexOf(base, languages.value);
    try { showFilters(await index.meta()); } catch (_) { status.textContent = strings.unavailable; return; }
    update();
  });
  root.querySelector("form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    list.querySelector("a")?.click();
  });
  // Arrow keys move between the field and the results.
  root.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const links = [...list.querySelectorAll("a")];
    if (!links.length) return;
    const at = links.indexOf(document.activeElement);
    event.preventDefault();
    if (event.key === "ArrowDown") (links[at + 1] || links[0]).focus();
    else if (at <= 0) input.focus();
    else links[at - 1].focus();
  });
  if (root.dataset.searchPage !== undefined && params.get("q")) {
    input.value = params.get("q");
    // With the filters the address names, once their choices are known.
    ready.then(update);
  }
  return { update, input };
}
