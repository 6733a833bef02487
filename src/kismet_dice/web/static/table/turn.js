// The head of the table: whose turn it is (or the result), who this page plays, the connection,
// the computer's readiness (only where a computer plays or was asked) and the assisted mark.

import { el } from "../dom.js";
import { levelNote, mine } from "./state.js";

// What the computer is getting ready, and how far it is: the target computer's chances of every
// position take a while (under a minute) the first time on a server, so the page says so, with the
// share done; and when the first run on the server's machine compiles the strategy, the server's words for it.
function gettingReady(page) {
  const state = page.state;
  const done = state.computer_progress === null || state.computer_progress === undefined
    ? ""
    : ` (${Math.floor(100 * state.computer_progress)}% done)`;
  const compiling = state.computer_compiling && page.words ? ` ${page.words.compiling}` : "";
  if (state.computer_task === "futures") {
    return (
      "The target computer is getting ready: the first time on a server it works out its chances from " +
      `every position, which takes under a minute${done}. Advice works meanwhile.${compiling}`
    );
  }
  return `The computer is getting ready: the first time on a server it works out its strategy, which takes a few seconds${done}.${compiling}`;
}

export function turnPanel(page) {
  const turn = el("h1", { id: "turn" }, "Loading the game…");
  const role = el("p", { id: "role" }, page.token ? "Checking your seat…" : "You are watching this game.");
  const connection = el("p", { id: "connection", class: "connection", "aria-live": "polite" });
  const computer = el("p", { id: "computer-status", class: "computer-status", "aria-live": "polite" });
  const assisted = el("p", { id: "assisted", class: "assisted", hidden: true });

  function draw() {
    const state = page.state;
    // At the end the heading is the result, in the server's words, drawn as a winner's banner.
    turn.classList.toggle("banner", state.over);
    if (state.over) turn.textContent = state.result;
    else {
      const player = state.players[state.current_player];
      const who = mine(page)
        ? "Your turn"
        : `${player.name}'s turn${levelNote(player)}`;
      turn.textContent = `Round ${state.round} · ${who}`;
    }
    const computerHere = state.players.some((player) => player.computer) || page.askedComputer;
    computer.textContent = !computerHere
      ? ""
      : state.computer === "getting_ready"
        ? gettingReady(page)
        : state.computer === "unavailable"
          ? `The computer cannot play or advise on this server: ${state.computer_problem || "it failed to get ready"}.`
          : "";
    assisted.hidden = !state.assisted;
    assisted.textContent = state.assisted
      ? "Assisted game: the computer gave advice, so this game cannot enter the Hall of Fame."
      : "";
  }

  return {
    node: el("div", { class: "head" }, turn, role, connection, computer, assisted),
    draw,
    turn,
    role,
    connection,
  };
}
