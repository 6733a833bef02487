// The dice panel: five dice (buttons to hold while the turn is yours, pictures otherwise), a short
// tumble of the dice just rolled (none when the user prefers reduced motion), the roll and advice
// buttons for the player whose turn it is and, for everyone else, whose turn it is.

import { dieFace } from "../dice.js";
import { el, replace } from "../dom.js";
import { get as setting, reducedMotion } from "../settings.js";
import { rattle } from "../sound.js";
import { mine } from "./state.js";

export function dicePanel(page, actions) {
  const dice = el("div", { id: "dice", class: "dice" });
  const roll = el("button", { id: "roll", class: "primary big", type: "button", "aria-keyshortcuts": "r" }, "Roll");
  const advice = el("button", { id: "ask-advice", class: "big", type: "button", "aria-keyshortcuts": "h" }, "Advice");
  const controls = el("div", { class: "controls" }, roll, advice);
  const waiting = el("p", { id: "waiting", class: "waiting", "aria-live": "polite" });
  roll.addEventListener("click", () => actions.roll());
  advice.addEventListener("click", () => actions.askAdvice());
  // Once the game is over there are no dice to show: the end's totals take their place.
  const board = el("div", { class: "board" }, dice, controls, waiting);
  let seenRoll = null; // the index of the last roll drawn, so each roll tumbles once

  function tumble(event) {
    const rolled = [0, 1, 2, 3, 4].filter((position) => !event.hold.includes(position));
    if (setting().sound) rattle(rolled.length);
    if (reducedMotion()) return;
    for (const position of rolled) {
      const face = dice.querySelector(`[data-position="${position}"] .die-face`);
      if (!face || !face.animate) continue;
      const turn = (Math.random() < 0.5 ? -1 : 1) * (240 + Math.floor(Math.random() * 200));
      face.animate(
        [
          { transform: "translateY(-0.8rem) rotate(0deg) scale(0.9)" },
          { transform: `translateY(0.2rem) rotate(${turn * 0.7}deg) scale(1.05)` },
          { transform: `translateY(0) rotate(${turn}deg) scale(1)` },
        ],
        { duration: 420 + position * 40, easing: "cubic-bezier(.2,.7,.3,1)" },
      );
    }
  }

  function draw() {
    const state = page.state;
    const playing = mine(page);
    const best = page.advice && page.advice.version === state.version ? page.advice.options[0] : null;
    const advised = new Set(best && best.hold ? best.hold : []);
    replace(
      dice,
      state.dice.map((die, position) => {
        const held = page.held.has(position);
        const label = `Die ${position + 1}: ${die.face} ${die.colour}${held ? ", held" : ""}${advised.has(position) ? ", advice keeps it" : ""}`;
        const classes = `die${held ? " held" : ""}${advised.has(position) ? " advised" : ""}`;
        const caption = el("span", { class: "die-caption" }, held ? "HELD" : `${position + 1}`);
        const dataset = { position: String(position), face: String(die.face) };
        if (!playing || !state.may_hold) {
          return el("div", { class: classes, role: "img", "aria-label": label, dataset }, dieFace(die), caption);
        }
        const button = el(
          "button",
          { type: "button", class: classes, dataset, "aria-pressed": held ? "true" : "false", "aria-label": label },
          dieFace(die),
          caption,
        );
        button.addEventListener("click", () => actions.toggleHold(position));
        return button;
      }),
    );
    if (state.dice.length === 0 && !state.over) {
      dice.append(el("p", { class: "no-dice" }, playing ? "Roll to begin your turn." : "The dice are not rolled yet."));
    }
    const last = state.events[state.events.length - 1];
    if (last && last.kind === "rolled" && seenRoll !== null && last.index > seenRoll) tumble(last);
    if (last && last.kind === "rolled") seenRoll = last.index;
    else if (seenRoll === null) seenRoll = last ? last.index : -1;

    board.hidden = state.over;
    // Only the controls this page can use: the others see whose turn it is.
    controls.hidden = !playing;
    roll.disabled = !state.may_roll || page.busy;
    // Roll is the primary step while a roll is left, unless the advice says to enter a box now:
    // then the sheet's boxes are (see sheet.js).
    roll.classList.toggle("primary", state.may_roll && !(best && best.box));
    roll.textContent = state.may_roll ? `Roll (${state.rolls_left} left)` : "No rolls left: choose a box";
    advice.disabled = state.dice.length === 0 || page.busy;
    const player = state.current_player === null ? null : state.players[state.current_player];
    waiting.hidden = playing || state.over || player === null;
    waiting.textContent = player ? `Waiting for ${player.described} to play.` : "";
  }

  return { node: board, draw };
}
