// What happened: every event of the game in the server's words, newest first, from the roll-off
// on; this page writes none of its own.

import { el } from "../dom.js";

export function logPanel(page, actions) {
  // Focusable: the list scrolls once it is long, and a keyboard must be able to scroll it too.
  const log = el("ol", { id: "log", class: "log", reversed: true, tabindex: "0", "aria-labelledby": "history-title" });
  let announced = 0;
  function draw(fresh) {
    const events = page.state.events;
    if (fresh) {
      log.replaceChildren();
      announced = 0;
    }
    const added = events.slice(announced);
    announced = events.length;
    for (const event of added) log.prepend(el("li", {}, event.text));
    const big = added.find((event) => event.kind === "second_kismet");
    if (big) actions.say(big.text, "announce");
  }
  return {
    node: el("section", { class: "history", "aria-labelledby": "history-title" }, el("h2", { id: "history-title" }, "What happened"), log),
    draw,
  };
}
