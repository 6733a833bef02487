// The lobby: seats in seating order, the house rule, and the invitation links once the game exists.

import { newGame } from "./api.js";
import { el, replace } from "./dom.js";

const MAX_SEATS = 6;

export function showLobby(main) {
  const seats = el("ol", { class: "seats" });
  const error = el("p", { class: "error", role: "alert" });
  const houseRule = el("input", { type: "checkbox", id: "zero-kismet-counts" });

  function addSeat(name = "") {
    if (seats.children.length >= MAX_SEATS) return;
    const input = el("input", {
      type: "text",
      maxlength: 24,
      required: true,
      value: name,
      "aria-label": `Player ${seats.children.length + 1}'s name`,
      class: "seat-name",
    });
    const remove = el("button", { type: "button", class: "remove-seat", "aria-label": "Remove this seat" }, "×");
    const item = el("li", {}, input, remove);
    remove.addEventListener("click", () => {
      if (seats.children.length > 1) item.remove();
      update();
    });
    seats.append(item);
    update();
    return input;
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
    el("p", {}, "One to six players, in seating order. Each player after the first gets an invitation link."),
    seats,
    addButton,
    el(
      "p",
      {},
      el(
        "label",
        {},
        houseRule,
        " House rule: a zero in the Kismet box counts as filled for the second Kismet",
      ),
    ),
    el("button", { type: "submit", id: "start", class: "primary" }, "Start the game"),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = [...seats.querySelectorAll(".seat-name")].map((input) => ({ name: input.value }));
    try {
      const game = await newGame(players, houseRule.checked);
      // The invitations are shown once, to whoever set the game up; the table page shows them too.
      sessionStorage.setItem(`kismet-invitations-${game.id}`, JSON.stringify(game.invitations));
      location.assign(game.invitations[0].link);
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  replace(main, form);
  addSeat("").focus();
}
