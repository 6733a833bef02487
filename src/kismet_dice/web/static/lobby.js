// The lobby: seats in seating order, each a person or a computer player at a level, the house rule.

import { limits, newGame } from "./api.js";
import { el, replace } from "./dom.js";
import { forget, remember, yourGames } from "./games.js";
import { keepSetup, lastSetup } from "./setup_memory.js";

// The limits (seats, name length, computer levels) are the server's: it defines each once.
export async function showLobby(main) {
  let known;
  try {
    known = await limits();
  } catch (failure) {
    replace(main, el("p", { class: "error", role: "alert" }, failure.message));
    return;
  }
  const MAX_SEATS = known.max_seats;
  const PLAYERS = [["", "Person"], ...known.levels.map((level) => [level, `Computer: ${level}`])];
  const computerNames = new Set(Object.values(known.computer_names));

  const seats = el("ol", { class: "seats" });
  const error = el("p", { class: "error", role: "alert" });
  const houseRule = el("input", { type: "checkbox", id: "zero-kismet-counts" });
  const turnTime = el(
    "select",
    { id: "turn-seconds", "aria-describedby": "turn-rule" },
    el("option", { value: "" }, "No limit"),
    known.turn_seconds_choices.map((seconds) => el("option", { value: String(seconds) }, `${seconds} seconds`)),
  );

  // A seat's name when it is left empty: a person's by their place, a computer's by its level.
  const defaultName = (item) => {
    const level = item.querySelector(".seat-player").value;
    return level ? known.computer_names[level] : item.querySelector(".seat-name").placeholder;
  };

  function addSeat(name = "", level = "") {
    if (seats.children.length >= MAX_SEATS) return;
    const number = seats.children.length + 1;
    const input = el("input", {
      type: "text",
      maxlength: known.max_name_length,
      value: name,
      placeholder: `Player ${number}`,
      "aria-label": `Player ${number}'s name`,
      class: "seat-name",
    });
    const player = el(
      "select",
      { class: "seat-player", "aria-label": `Player ${number} is` },
      PLAYERS.map(([value, label]) => el("option", { value, selected: value === level }, label)),
    );
    player.addEventListener("change", () => {
      // A computer seat is named by its level: an empty name, or a computer's default one, follows
      // the level; a name the person typed stays.
      const typed = input.value.trim();
      if (!typed || [...computerNames].some((known) => typed === known || typed.startsWith(`${known} `))) {
        input.value = player.value ? computerName(player.value, input) : "";
      }
    });
    const remove = el("button", { type: "button", class: "remove-seat", "aria-label": "Remove this seat" }, "×");
    const item = el("li", {}, input, " ", player, remove);
    remove.addEventListener("click", () => {
      if (seats.children.length > 1) item.remove();
      update();
    });
    seats.append(item);
    update();
    return input;
  }

  function computerName(level, own) {
    const taken = new Set(
      [...seats.querySelectorAll(".seat-name")].filter((input) => input !== own).map((input) => input.value.trim()),
    );
    const base = known.computer_names[level];
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? base : `${base} ${n}`;
      if (!taken.has(name)) return name;
    }
  }

  const addButton = el("button", { type: "button", id: "add-seat" }, "Add a player");
  addButton.addEventListener("click", () => addSeat()?.focus());

  function update() {
    addButton.disabled = seats.children.length >= MAX_SEATS;
    for (const button of seats.querySelectorAll(".remove-seat")) button.disabled = seats.children.length === 1;
  }

  const form = el(
    "form",
    { class: "lobby", id: "new-game" },
    el("h1", {}, "A new game of Kismet"),
    el(
      "p",
      {},
      "One to six players, in seating order, each a person or a computer player. " +
        "Every person after the first gets an invitation link; computer players play on the server.",
    ),
    seats,
    addButton,
    el(
      "details",
      { id: "levels", class: "levels" },
      el("summary", {}, "How the computer levels play"),
      el(
        "dl",
        {},
        known.levels.flatMap((level) => [el("dt", {}, level), el("dd", { dataset: { level } }, known.level_words[level])]),
      ),
    ),
    el(
      "p",
      {},
      el(
        "label",
        { class: "setting" },
        houseRule,
        " House rule: a zero in the Kismet box counts as filled for the second Kismet",
      ),
    ),
    el("p", {}, el("label", { for: "turn-seconds" }, "Time per turn (online): "), turnTime),
    el("p", { id: "turn-rule", class: "hint" }, known.time_out_rule),
    el("button", { type: "submit", id: "start", class: "primary" }, "Start the game"),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = [...seats.children].map((item) => ({
      name: item.querySelector(".seat-name").value.trim() || defaultName(item),
      computer: item.querySelector(".seat-player").value || null,
    }));
    const seconds = turnTime.value ? Number(turnTime.value) : null;
    try {
      const game = await newGame(players, houseRule.checked, seconds);
      keepSetup({ players, zeroKismetCounts: houseRule.checked, turnSeconds: seconds });
      // The host keeps the invitations (shown on the table until each seat joins) and the game
      // is one of "your games" here, to come back to.
      const own = game.invitations.length ? game.invitations[0].link : game.watch_link;
      remember(game.id, {
        link: own,
        names: players.map((player) => player.name.trim()),
        invitations: game.invitations.slice(1),
      });
      // The first person plays here; a table of computers only is watched.
      location.assign(own);
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  replace(main, form, ourGames());
  // The last set-up started here is offered again; the first time, one empty seat.
  const last = lastSetup();
  const offered = last ? last.players.slice(0, MAX_SEATS) : [{ name: "", computer: null }];
  offered.forEach((player) => addSeat(typeof player.name === "string" ? player.name : "", known.levels.includes(player.computer) ? player.computer : ""));
  if (last) {
    houseRule.checked = last.zeroKismetCounts === true;
    if (known.turn_seconds_choices.includes(last.turnSeconds)) turnTime.value = String(last.turnSeconds);
  }
  seats.querySelector(".seat-name").focus();
}

// The unfinished games this browser holds a link to.
function ourGames() {
  const games = yourGames().filter((game) => !game.over && game.link);
  if (!games.length) return null;
  const list = el("ul", { id: "your-games", class: "your-games" });
  for (const game of games) {
    const started = new Date(game.started).toLocaleString();
    const drop = el("button", { type: "button", class: "forget", "aria-label": `Forget the game of ${(game.names || ["a game"]).join(", ")}` }, "Forget");
    const item = el(
      "li",
      {},
      el("a", { href: game.link }, (game.names || ["a game"]).join(", ")),
      el("span", { class: "hint" }, ` started ${started}`),
      " ",
      drop,
    );
    drop.addEventListener("click", () => {
      forget(game.id);
      item.remove();
    });
    list.append(item);
  }
  return el("section", { class: "lobby" }, el("h2", {}, "Your games"), list);
}
