// Runs before the app bundle so the page never flashes the wrong theme. It is a file, not an
// inline script, because the production CSP forbids inline scripts. The storage key and logic must
// stay in step with src/shared/constants.ts (THEME_STORAGE_KEY) and src/client/lib/theme.tsx.
(function () {
  var theme = "system";
  try {
    var stored = window.localStorage.getItem("faultline-theme");
    if (stored === "light" || stored === "dark" || stored === "system") theme = stored;
  } catch (error) {
    // Storage unavailable: keep the default.
  }
  var dark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var root = document.documentElement;
  root.classList.remove("light", "dark");
  root.classList.add(dark ? "dark" : "light");
})();
