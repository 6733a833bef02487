// The settings this browser keeps (localStorage): the theme, the sound of the dice, and whether a
// box is entered with one step. Read anywhere with get(); the panel in the header changes them.

import { el, replace } from "./dom.js";

const KEY = "kismet-settings";
const DEFAULTS = { theme: "system", sound: false, enterAtOnce: false };
const listeners = new Set();

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

let current = load();

export const get = () => current;

export function set(changes) {
  current = { ...current, ...changes };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // A browser that keeps nothing still plays; the settings last for this page.
  }
  apply();
  for (const listener of listeners) listener(current);
}

export const onChange = (listener) => listeners.add(listener);

// "system" leaves the theme to prefers-color-scheme (the CSS follows it); light or dark overrides it.
function apply() {
  const root = document.documentElement;
  if (current.theme === "system") delete root.dataset.theme;
  else root.dataset.theme = current.theme;
}

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

export function installSettings() {
  apply();
  const button = document.getElementById("settings-button");
  const panel = document.getElementById("settings");
  if (!button || !panel) return;
  const theme = el(
    "select",
    { id: "setting-theme" },
    [
      ["system", "as the system"],
      ["light", "light"],
      ["dark", "dark"],
    ].map(([value, label]) => el("option", { value, selected: current.theme === value }, label)),
  );
  theme.addEventListener("change", () => set({ theme: theme.value }));
  const box = (id, key, label) => {
    const input = el("input", { type: "checkbox", id, checked: current[key] });
    input.addEventListener("change", () => set({ [key]: input.checked }));
    return el("label", { for: id, class: "setting" }, input, ` ${label}`);
  };
  replace(
    panel,
    el("h2", {}, "Settings"),
    el("label", { for: "setting-theme", class: "setting" }, "Theme: ", theme),
    box("setting-sound", "sound", "Sound of the dice"),
    box("setting-enter", "enterAtOnce", "Enter at once (one key, click or tap fills a box)"),
    el("p", { class: "hint" }, "Kept in this browser."),
  );
  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
  });
}
