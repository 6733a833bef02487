// The keys, as in the terminal game: 1-5 hold, space or r roll, a box's letter (or ↑↓) chooses and
// the same letter or Enter enters, Esc drops the choice, h advice (Enter plays its highlighted option),
// ? the help, F1 the rules.

import { BOX_KEYS, mine, openBoxes } from "./state.js";

export function installKeys(page, actions) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    // As in the terminal: ? the help, F1 the rules.
    if (event.key === "?") {
      event.preventDefault();
      actions.toggleHelp();
      return;
    }
    if (event.key === "F1") {
      event.preventDefault();
      actions.toggleRules();
      return;
    }
    if (actions.dialogOpen() || !page.state) return;
    // A zero asked about (enter at once, or the advice's box): y enters it, n or Esc does not.
    if (page.zeroAsked) {
      const answer = event.key.toLowerCase();
      if (answer === "y" || answer === "n" || event.key === "Escape") {
        event.preventDefault();
        actions.answerZero(answer === "y");
      }
      return;
    }
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
      // As in the terminal's advice: Enter plays the highlighted option, the best at first.
      else if (page.advice && page.advice.version === page.state.version) actions.playOption(page.advice.highlighted || 0);
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
