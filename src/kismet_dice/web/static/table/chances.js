// Everyone's chance of winning, a bar each: from the game's own view (players[].win_chance) and
// then from the server's "chances" message after each change. Where the server does not hold the
// futures of every position there are none, and the panel stays hidden.

import { el, replace } from "../dom.js";
import { chart } from "../stats.js";

export function chancesPanel(page) {
  const list = el("ul", { class: "win-chances-list" });
  const model = el("p", { class: "hint", id: "win-chances-model" });
  const node = el(
    "section",
    { id: "win-chances", class: "win-chances", "aria-labelledby": "win-chances-title", hidden: true },
    el("h2", { id: "win-chances-title" }, "Chances of winning"),
    list,
    model,
  );
  let known = null; // { version, chances, model }
  let course = null; // the chart of the chances over the game, once it is over

  // The chances of the game's view, when it came with them (its first load, say).
  function fromView(state) {
    const chances = state.players.map((player) => player.win_chance);
    if (chances.every((chance) => typeof chance === "number")) {
      if (!known || known.version <= state.version) known = { version: state.version, chances, model: known ? known.model : "" };
    }
  }

  function heard(message) {
    if (!known || message.version >= known.version) {
      known = { version: message.version, chances: message.win_chances, model: message.model };
      draw();
    }
  }

  function draw() {
    const state = page.state;
    if (!state) return;
    fromView(state);
    if (!known || known.chances.length !== state.players.length) {
      node.hidden = true;
      return;
    }
    node.hidden = false;
    replace(
      list,
      state.players.map((player, seat) => {
        const percent = (100 * known.chances[seat]).toFixed(1);
        const id = `win-chance-${seat}`;
        return el(
          "li",
          {},
          el("label", { for: id }, `${player.name} ${percent}%`),
          el("progress", { id, max: "100", value: percent }, `${percent}%`),
        );
      }),
    );
    model.textContent = known.model;
    node.classList.toggle("stale", known.version < state.version);
    if (state.over && !course) {
      // Once the game is over: everyone's chance over the game, entry by entry, drawn by the server.
      const label = "Everyone's chance of winning over the game";
      course = el("figure", { class: "chart", id: "win-chances-course" }, el("p", { class: "drawing" }, "Drawing the chart…"), el("figcaption", {}, label));
      node.append(course);
      chart(course, `/api/games/${encodeURIComponent(page.id)}/chances.svg`, "win-chances", label);
    }
  }

  return { node, draw, heard };
}
