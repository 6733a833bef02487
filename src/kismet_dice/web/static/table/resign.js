// Resigning a seat: a person leaves the game for good (every open box of their sheet gets a 0 and
// the game goes on for the others). Asked first, in the words every interface uses.

import { el, replace } from "../dom.js";

export function resignPanel(page, actions) {
  const panel = el("section", { id: "resign", class: "resign" });
  let asking = false;

  const stillPlaying = () => {
    const state = page.state;
    if (!state || state.over || page.seat === null) return false;
    return state.players[page.seat].sheet.some((entry) => entry.points === null);
  };

  function ask() {
    asking = true;
    const yes = el("button", { type: "button", id: "resign-confirm", class: "primary" }, "Resign");
    const no = el("button", { type: "button", id: "resign-cancel" }, "Keep playing");
    yes.addEventListener("click", () => {
      asking = false;
      actions.resign();
    });
    no.addEventListener("click", () => {
      asking = false;
      draw();
    });
    replace(
      panel,
      el(
        "div",
        { class: "warning-box", role: "alertdialog", "aria-labelledby": "resign-question" },
        el("p", { id: "resign-question" }, page.words ? page.words.resign_question : "Resign your seat?"),
        yes,
        " ",
        no,
      ),
    );
    no.focus();
  }

  function draw() {
    panel.hidden = !stillPlaying();
    if (panel.hidden) asking = false;
    if (asking || panel.hidden) return;
    const button = el("button", { type: "button", id: "resign-button" }, "Resign this seat…");
    button.addEventListener("click", ask);
    replace(panel, button);
  }

  return { node: panel, draw };
}
