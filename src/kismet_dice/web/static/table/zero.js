// The question before a zero is entered at once (with "enter at once", or from the advice), in the
// words and with the keys of the terminal: y enters the zero, n or Esc does not.

import { el, replace } from "../dom.js";

export function zeroPanel(page, actions) {
  const panel = el("div", { id: "zero-question", class: "zero-question", hidden: true });

  function draw() {
    const box = page.zeroAsked;
    const entry = box && page.state ? page.state.players[page.state.current_player]?.sheet.find((each) => each.box === box) : null;
    panel.hidden = !entry;
    if (!entry) {
      panel.replaceChildren();
      return;
    }
    const question = page.words ? page.words.zero_question.replace("{box}", entry.label) : `${entry.label}: enter the zero?`;
    const yes = el("button", { type: "button", id: "zero-yes", class: "primary", "aria-keyshortcuts": "y" }, "Yes (y)");
    const no = el("button", { type: "button", id: "zero-no", "aria-keyshortcuts": "n" }, "No (n)");
    yes.addEventListener("click", () => actions.answerZero(true));
    no.addEventListener("click", () => actions.answerZero(false));
    replace(panel, el("div", { class: "warning-box", role: "alertdialog", "aria-labelledby": "zero-words" }, el("p", { id: "zero-words" }, question), yes, " ", no));
    no.focus();
  }

  return { node: panel, draw };
}
