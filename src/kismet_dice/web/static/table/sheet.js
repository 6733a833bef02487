// The score sheets: one column per player (the current player's stands out; at the end the
// winners' do), each open box of the current player showing what the dice would score there. A
// box is chosen first and entered second (see index.js). The entry another player made last is
// marked, and a box just filled pops once.

import { el, replace } from "../dom.js";
import { BOX_KEYS, connected, levelNote, mine, namedWinner } from "./state.js";

export function sheetPanel(page, actions) {
  const wrap = el("div", { class: "sheet-wrap", id: "sheet-wrap" });
  let popped = null; // the index of the entry whose pop has been shown (null before the first draw)

  // The latest entry of the game: its box keeps the class scored-now until another entry is made,
  // and pops (a CSS animation) the first time it is drawn. The sheet is drawn anew at every
  // message, so a later draw ends the animation at once rather than popping the box again.
  function latestEntry(state) {
    for (let index = state.events.length - 1; index >= 0; index -= 1) {
      const event = state.events[index];
      if (event.kind === "scored") return event;
    }
    return null;
  }

  // The last entry someone other than this page's player made: the move to look at on coming back.
  function lastEntry(state) {
    for (let index = state.events.length - 1; index >= 0; index -= 1) {
      const event = state.events[index];
      if (event.kind === "scored" && event.seat !== page.seat) return `${event.seat}:${event.box}`;
    }
    return null;
  }

  function presence(player, here) {
    // A computer named by its level ("Computer (hard)") is not told it twice.
    if (player.computer) return levelNote(player) ? el("span", { class: "level" }, `computer, ${player.computer}`) : null;
    return here.has(player.seat)
      ? el("span", { class: "presence here" }, "● here")
      : el("span", { class: "presence away" }, "○ away");
  }

  function columnClass(player) {
    const state = page.state;
    if (state.over) return state.winners.includes(player.seat) ? "winner" : null;
    return player.seat === state.current_player ? "current" : null;
  }

  function cell(player, entry, marks) {
    const key = `${player.seat}:${entry.box}`;
    const classes = [columnClass(player), marks.latest === key ? "scored-now" : null, marks.last === key ? "last-entry" : null];
    const attributes = { dataset: { seat: String(player.seat), box: entry.box }, class: classes.filter(Boolean).join(" ") || null };
    if (entry.points !== null) {
      return el(
        "td",
        attributes,
        el("span", { class: "entry" }, entry.points),
        marks.last === key ? el("span", { class: "visually-hidden" }, " (last entry)") : null,
      );
    }
    if (entry.option === null) return el("td", attributes);
    const label = `${entry.label}: ${entry.option} points`;
    if (!mine(page)) return el("td", attributes, el("span", { class: "option", title: label }, entry.option));
    const chosen = page.choice === entry.box;
    const button = el(
      "button",
      {
        type: "button",
        class: `option${chosen ? " chosen" : ""}${chosen && entry.option === 0 ? " confirm" : ""}${marks.advised === entry.box && !chosen ? " primary" : ""}`,
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
    const latest = latestEntry(state);
    const marks = { latest: latest ? `${latest.seat}:${latest.box}` : null, last: lastEntry(state), advised: best ? best.box : null };
    // With no roll left the boxes are the only step, so they take the primary colour.
    wrap.classList.toggle("choose-now", mine(page) && state.dice.length > 0 && !state.may_roll);
    const head = el(
      "tr",
      {},
      el("th", { scope: "col", class: "box-col" }, "Box"),
      state.players.map((player) =>
        el(
          "th",
          { scope: "col", class: columnClass(player), dataset: { seat: String(player.seat) } },
          player.seat === state.current_player && !state.over ? el("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
          el("span", { class: "player-name" }, player.name),
          player.seat === page.seat ? el("span", { class: "you" }, " (you)") : null,
          el("br"),
          presence(player, here),
          state.over && namedWinner(state, player.seat) ? el("span", { class: "badge" }, "winner") : null,
        ),
      ),
    );
    const summary = (label, value) =>
      el(
        "tr",
        { class: "summary" },
        el("th", { scope: "row", class: "box-col" }, label),
        state.players.map((player) =>
          el("td", { class: columnClass(player) }, value(player)),
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
          state.players.map((player) => cell(player, player.sheet[index], marks)),
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
    const index = latest ? latest.index : -1;
    if (popped === null || popped === index) {
      // Shown already (or there when the page opened): no pop.
      for (const node of wrap.querySelectorAll(".scored-now, .scored-now .entry")) {
        for (const animation of node.getAnimations()) animation.finish();
      }
    }
    popped = index;
  }

  return { node: wrap, draw };
}
