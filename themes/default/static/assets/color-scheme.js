// Applies the light or dark scheme the reader chose with the header's toggle (tessera.js keeps
// it) before the page is first drawn, so it never flashes the other one. Loaded without `defer`,
// and small; a file rather than an inline script, so a Content-Security-Policy need not allow
// inline scripts.
try {
  const chosen = localStorage.getItem("tessera-color-scheme");
  if (chosen === "light" || chosen === "dark") document.documentElement.dataset.colorScheme = chosen;
} catch (_) {}
