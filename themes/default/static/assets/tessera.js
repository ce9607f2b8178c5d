// Dismissible banners. Without this script a banner simply stays; with it, its close button
// appears, and a dismissal is remembered in this browser under the banner's key.
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
