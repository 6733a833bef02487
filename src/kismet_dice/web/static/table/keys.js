// The keys, as in the terminal game: 1-5 hold, space or r roll, a box's letter (or ↑↓) chooses and
// the same letter or Enter enters, Esc drops the choice, h advice, ? the rules.

import { BOX_KEYS, mine, openBoxes } from "./state.js";

export function installKeys(page, actions) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    if (event.key === "?") {
      event.preventDefault();
      actions.toggleRules();
      return;
    }
    if (actions.dialogOpen() || !page.state) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[1-5]$/.test(key)) actions.toggleHold(Number(key) - 1);
    else if (key === "h") actions.askAdvice();
    else if (key === " " || key === "r") {
      if (target instanceof HTMLButtonElement && key === " ") return; // space presses the focused button
      event.preventDefault();
      actions.roll();
    } else if (key.length === 1 && BOX_KEYS.includes(key)) {
      actions.choose(page.state.players[0].sheet[BOX_KEYS.indexOf(key)].box);
    } else if (key === "ArrowDown" || key === "ArrowUp") {
      if (!mine(page)) return;
      event.preventDefault();
      actions.move(key === "ArrowDown" ? 1 : -1);
    } else if (key === "Enter") {
      if (target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement) return;
      if (page.choice) actions.choose(page.choice);
    } else if (key === "Escape") actions.drop();
  });
}

export function nextOpen(page, step) {
  const open = openBoxes(page);
  if (!open.length) return null;
  const at = open.findIndex((entry) => entry.box === page.choice);
  const index = at === -1 ? (step > 0 ? 0 : open.length - 1) : (at + step + open.length) % open.length;
  return open[index].box;
}
