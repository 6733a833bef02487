// The score sheets: one column per player (the current player's stands out, and on a phone stays
// in view while the others scroll), each open box of the current player showing what the dice
// would score there. A box is chosen first and entered second (see index.js).

import { el, replace } from "../dom.js";
import { BOX_KEYS, connected, mine } from "./state.js";

export function sheetPanel(page, actions) {
  const wrap = el("div", { class: "sheet-wrap", id: "sheet-wrap" });

  function presence(player, here) {
    if (player.computer) return el("span", { class: "level" }, `computer, ${player.computer}`);
    return here.has(player.seat)
      ? el("span", { class: "presence here" }, "● here")
      : el("span", { class: "presence away" }, "○ away");
  }

  function cell(player, entry) {
    const state = page.state;
    const current = player.seat === state.current_player;
    const attributes = { dataset: { seat: String(player.seat), box: entry.box }, class: current ? "current" : null };
    if (entry.points !== null) return el("td", attributes, el("span", { class: "entry" }, entry.points));
    if (entry.option === null) return el("td", attributes);
    const label = `${entry.label}: ${entry.option} points`;
    if (!mine(page)) return el("td", attributes, el("span", { class: "option", title: label }, entry.option));
    const chosen = page.choice === entry.box;
    const button = el(
      "button",
      {
        type: "button",
        class: `option${chosen ? " chosen" : ""}${chosen && entry.option === 0 ? " confirm" : ""}`,
        "aria-label": chosen ? `Enter ${label}` : `Choose ${label}`,
        "aria-pressed": chosen ? "true" : "false",
      },
      entry.option,
    );
    button.addEventListener("click", () => actions.choose(entry.box));
    return el("td", attributes, button);
  }

  function draw() {
    const state = page.state;
    const here = connected(page);
    const best = page.advice && page.advice.version === state.version ? page.advice.options[0] : null;
    const head = el(
      "tr",
      {},
      el("th", { scope: "col", class: "box-col" }, "Box"),
      state.players.map((player) =>
        el(
          "th",
          { scope: "col", class: player.seat === state.current_player ? "current" : null, dataset: { seat: String(player.seat) } },
          player.seat === state.current_player && !state.over ? el("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
          el("span", { class: "player-name" }, player.name),
          player.seat === page.seat ? el("span", { class: "you" }, " (you)") : null,
          el("br"),
          presence(player, here),
        ),
      ),
    );
    const summary = (label, value) =>
      el(
        "tr",
        { class: "summary" },
        el("th", { scope: "row", class: "box-col" }, label),
        state.players.map((player) =>
          el("td", { class: player.seat === state.current_player ? "current" : null }, value(player)),
        ),
      );
    const rows = [];
    state.players[0].sheet.forEach((first, index) => {
      const classes = [page.choice === first.box && mine(page) ? "selected" : "", best && best.box === first.box ? "advised" : ""];
      rows.push(
        el(
          "tr",
          { class: classes.join(" ").trim() || null, dataset: { box: first.box } },
          el("th", { scope: "row", class: "box-col" }, el("kbd", {}, BOX_KEYS[index]), ` ${first.label}`),
          state.players.map((player) => cell(player, player.sheet[index])),
        ),
      );
      if (first.box === "SIXES") {
        rows.push(summary("Basic total", (player) => player.basic_total));
        rows.push(
          summary("Bonus", (player) => {
            const complete = player.sheet.slice(0, 6).every((entry) => entry.points !== null);
            if (complete || player.points_to_next_bonus === null) return player.bonus;
            return `${player.points_to_next_bonus} to next`;
          }),
        );
      }
    });
    rows.push(summary("Kismet total", (player) => player.kismet_total));
    rows.push(summary("Game total", (player) => el("strong", { class: "total" }, player.total)));
    replace(wrap, el("table", { class: "sheet", id: "sheet" }, el("thead", {}, head), el("tbody", {}, rows)));
  }

  return { node: wrap, draw };
}
