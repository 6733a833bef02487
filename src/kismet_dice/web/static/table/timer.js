// The countdown of a turn at a table that gives each person's turn a time: the seconds left, and
// once they run out, that the table plays the turn (by the rule the server states in its limits).

import { el } from "../dom.js";
import { mine } from "./state.js";

export function timerPanel(page) {
  const line = el("p", { id: "turn-timer", class: "turn-timer", hidden: true });
  let ticking = null;

  function tick() {
    const state = page.state;
    const deadline = state ? state.turn_deadline : null;
    if (deadline === null || deadline === undefined || state.over) {
      line.hidden = true;
      clearInterval(ticking);
      ticking = null;
      return;
    }
    const now = Date.now() / 1000 + page.clockAhead; // by the server's clock
    const left = Math.max(0, Math.ceil(deadline - now));
    const player = state.players[state.current_player];
    const whose = mine(page) ? "your turn" : `${player.name}'s turn`;
    const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    line.hidden = false;
    line.classList.toggle("late", left <= 10);
    line.textContent = left > 0 ? `Time left for ${whose}: ${clock}` : `Time is up for ${whose}: the table plays it.`;
  }

  function draw() {
    tick();
    if (!line.hidden && ticking === null) ticking = setInterval(tick, 1000);
  }

  return { node: line, draw };
}
