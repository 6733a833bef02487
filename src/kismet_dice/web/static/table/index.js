// The game table: the page's state, what a player can do, and the panels that draw it. Everything
// the rules decide (what a box would score, whether a roll or a hold is allowed, whose turn it is)
// comes from the server, and so do the computer's moves, its advice and its verdict.

import * as api from "../api.js";
import { el, replace } from "../dom.js";
import { remember } from "../games.js";
import { get as setting } from "../settings.js";
import { advicePanel } from "./advice.js";
import { chancesPanel } from "./chances.js";
import { dicePanel } from "./dice.js";
import { endPanel } from "./end.js";
import { invitationsPanel } from "./invitations.js";
import { installKeys, nextOpen } from "./keys.js";
import { connect } from "./live.js";
import { logPanel } from "./log.js";
import { sheetPanel } from "./sheet.js";
import { canScore, mine, newPage, openBoxes } from "./state.js";
import { turnPanel } from "./turn.js";
import { resignPanel } from "./resign.js";
import { timerPanel } from "./timer.js";
import { watchPanel } from "./watch.js";
import { zeroPanel } from "./zero.js";

export function showTable(main, id) {
  const page = newPage(id, new URLSearchParams(location.hash.slice(1)).get("seat") || "");
  document.body.dataset.busy = "no";
  const status = el("p", { id: "status", role: "status", "aria-live": "polite" });

  function say(text, kind = "info") {
    status.textContent = text;
    status.className = kind;
  }

  const actions = { say, render, roll, toggleHold, choose, move, drop, askAdvice, fetchAdvice, toggleRules, toggleHelp, dialogOpen, resign, playOption, answerZero };
  const head = turnPanel(page);
  const dice = dicePanel(page, actions);
  const advice = advicePanel(page, actions);
  const sheet = sheetPanel(page, actions);
  const log = logPanel(page, actions);
  const end = endPanel(page, actions);
  const invitations = invitationsPanel(page);
  const watch = watchPanel(page);
  const leave = resignPanel(page, actions);
  const timer = timerPanel(page);
  const zero = zeroPanel(page, actions);
  const chances = chancesPanel(page);
  const panels = [head, timer, dice, zero, advice, sheet, end, invitations, leave, chances];
  const keys = el(
    "p",
    { class: "keys" },
    "Keys: 1-5 hold · space or r roll · a-p (no h) or ↑↓ choose a box, the same letter or Enter enters it, Esc drops · h advice, Enter plays its highlighted option · ? help · F1 rules",
  );
  replace(
    main,
    el(
      "section",
      { class: "table" },
      el("div", { class: "play" }, head.node, timer.node, dice.node, status, zero.node, advice.node, end.node, chances.node, invitations.node, log.node, watch.node, leave.node, keys),
      sheet.node,
    ),
  );
  main.classList.add("wide");

  async function act(request) {
    if (page.busy) return null;
    page.busy = true;
    document.body.dataset.busy = "yes";
    let state = null;
    try {
      state = await request();
    } catch (failure) {
      say(failure.message, "error");
    } finally {
      page.busy = false;
      document.body.dataset.busy = "no";
    }
    // Drawn once the request is done, so the roll button is not left disabled.
    if (state) render(state);
    else if (page.state) render(page.state);
    return state;
  }

  function roll() {
    if (!mine(page) || !page.state.may_roll) return;
    page.choice = null;
    say("");
    act(() => api.roll(id, page.token, [...page.held].sort()));
  }

  function resign() {
    say("");
    act(() => api.resign(id, page.token));
  }

  function toggleHold(position) {
    const state = page.state;
    if (!mine(page) || !state.may_hold || position >= state.dice.length) return;
    if (page.held.has(position)) page.held.delete(position);
    else page.held.add(position);
    dice.draw();
  }

  // Two steps: the first choice of a box shows what it would score; the same box again enters it.
  // With "enter at once" one step enters, except a zero, which is always asked again.
  function choose(box) {
    if (!canScore(page)) return;
    const entry = openBoxes(page).find((open) => open.box === box);
    if (!entry) return;
    const again = page.choice === box;
    if (setting().enterAtOnce && entry.option === 0 && !again) {
      // As in the terminal: entering at once asks before a zero.
      askZero(box);
      return;
    }
    if (again || setting().enterAtOnce) {
      page.choice = null;
      say("");
      act(() => api.score(id, page.token, box));
      return;
    }
    page.choice = box;
    const letter = "abcdefgijklmnop"[page.state.players[0].sheet.findIndex((e) => e.box === box)];
    if (entry.option === 0) {
      say(`${entry.label} would score 0: entering it puts a 0 there for good. Choose it again (${letter}, Enter or a second click) to enter the zero; Esc to drop.`, "warning");
    } else {
      say(`${entry.label} would score ${entry.option}. Choose it again (${letter}, Enter or a second click) to enter it; Esc to drop.`, "info");
    }
    sheet.draw();
  }

  function askZero(box) {
    page.zeroAsked = box;
    page.choice = null;
    zero.draw();
    sheet.draw();
  }

  function answerZero(yes) {
    const box = page.zeroAsked;
    page.zeroAsked = null;
    zero.draw();
    if (yes && box && canScore(page)) {
      say("");
      act(() => api.score(id, page.token, box));
    }
  }

  // An option of the advice, played as the terminal plays it: a box is entered (a zero asked
  // first), a keep holds those dice and rolls the others.
  function playOption(rank) {
    const advised = page.advice;
    if (!mine(page) || page.busy || !advised || advised.version !== page.state.version) return;
    const option = advised.options[rank];
    if (!option) return;
    if (option.box) {
      const entry = openBoxes(page).find((open) => open.box === option.box);
      if (!entry) return;
      if (entry.option === 0) askZero(option.box);
      else {
        page.choice = null;
        say("");
        act(() => api.score(id, page.token, option.box));
      }
      return;
    }
    page.held = new Set(option.hold || []);
    roll();
  }

  function move(step) {
    if (!canScore(page)) return;
    const box = nextOpen(page, step);
    if (box) {
      page.choice = null;
      choose(box);
    }
  }

  function drop() {
    if (page.choice === null) return;
    page.choice = null;
    say("");
    sheet.draw();
  }

  function askAdvice() {
    if (!canScore(page) || page.busy) return;
    if (page.state.assisted || page.warned) fetchAdvice();
    else advice.warn();
  }

  async function fetchAdvice() {
    advice.asking();
    page.askedComputer = true;
    page.busy = true;
    document.body.dataset.busy = "yes";
    let result = null;
    try {
      result = await api.advice(id, page.token);
    } catch (failure) {
      advice.clear();
      say(failure.message, "error");
    } finally {
      page.busy = false;
      document.body.dataset.busy = "no";
    }
    if (result) {
      page.advice = { version: result.game.version, options: result.options, hall: result.hall };
      render(result.game);
      if (result.hall.pending) fetchChances(result.game.version);
    } else if (page.state) render(page.state);
  }

  // The options' chances of a Hall of Fame total come later than the options (the server works
  // them out off its event loop); they are shown only if the dice are still the ones advised on.
  async function fetchChances(version) {
    let result = null;
    try {
      result = await api.adviceChances(id, page.token);
    } catch (failure) {
      if (page.advice && page.advice.version === version) {
        page.advice = { ...page.advice, hall: { ...page.advice.hall, pending: false, line: null } };
        advice.draw();
      }
      say(failure.message, "error");
      return;
    }
    if (!page.advice || page.advice.version !== version || result.game.version !== version) return;
    page.advice = { version, options: result.options, hall: result.hall };
    advice.draw();
  }

  function render(state) {
    if (page.state && state.version < page.state.version) return;
    const previous = page.state;
    if (!previous || state.current_player !== previous.current_player || state.dice.length === 0) {
      page.held.clear();
      page.choice = null;
    }
    if (previous && previous.version !== state.version) {
      page.choice = null;
      page.zeroAsked = null;
    }
    page.state = state;
    advice.draw(); // first: it drops advice about dice that are gone before the others draw
    for (const panel of panels) if (panel !== advice) panel.draw();
    log.draw(previous === null);
  }

  function update(change) {
    const state = page.state;
    const touched = new Map(change.players.map((player) => [player.seat, player]));
    render({
      ...state,
      ...change.turn,
      version: change.version,
      connected: change.connected,
      players: state.players.map((player) => touched.get(player.seat) || player),
      events: [...state.events, ...change.events],
    });
    // News (a Hall of Fame entry, a turn whose time ran out) is said once on this page, whether
    // it came first with an answer (the Hall of Fame form's) or with the update.
    const fresh = change.news.filter((text) => !page.newsShown.has(text));
    for (const text of fresh) page.newsShown.add(text);
    if (fresh.length) say(fresh.join(" "), "announce");
  }

  function presence(seats) {
    if (!page.state) return;
    page.state = { ...page.state, connected: seats };
    sheet.draw();
    invitations.draw();
  }

  // One dialog shows the help (?) or the rules (F1), as the terminal's keys do; the same key again,
  // or Esc, closes it.
  const dialog = document.getElementById("rules-dialog");
  const shown = { kind: null, html: {} };
  function dialogOpen() {
    return dialog.open;
  }
  async function toggleText(kind) {
    if (dialog.open && shown.kind === kind) {
      dialog.close();
      return;
    }
    const text = document.getElementById("rules-text");
    if (!(kind in shown.html)) {
      try {
        // HTML rendered on the server from HELP.md or RULES.md, with any raw HTML in it escaped.
        shown.html[kind] = (await (kind === "help" ? api.helpHtml() : api.rulesHtml())).text;
      } catch (failure) {
        text.replaceChildren(el("p", { class: "error" }, failure.message));
        if (!dialog.open) dialog.showModal();
        return;
      }
    }
    text.innerHTML = shown.html[kind];
    shown.kind = kind;
    dialog.setAttribute("aria-label", kind === "help" ? "Help" : "Rules");
    if (!dialog.open) dialog.showModal();
  }
  function toggleRules() {
    return toggleText("rules");
  }
  function toggleHelp() {
    return toggleText("help");
  }

  installKeys(page, actions);

  async function identify() {
    if (!page.token) return;
    try {
      const seat = await api.seat(id, page.token);
      page.seat = seat.seat;
      head.role.textContent = `You play ${seat.name}. Keep your link to come back to your seat (this browser keeps it under "Your games").`;
      remember(id, { link: `${location.pathname}${location.hash}` });
    } catch (failure) {
      head.role.textContent = `${failure.message}. You are watching this game.`;
    }
    if (page.state) render(page.state);
  }

  Promise.all([api.getGame(id), api.limits(), api.words()])
    .then(([state, limits, words]) => {
      page.limits = limits;
      page.words = words;
      render(state);
      if (page.token) remember(id, { names: state.players.map((player) => player.name), over: state.over });
      connect(page, {
        render,
        update,
        presence,
        chances: (message) => chances.heard(message),
        again: (message) => {
          // A seat's page moves to its own seat of the new game (the server sends each page only
          // its own seat's link); a watcher is offered the new game to watch. The page that asked
          // for the new game moves on from its own answer (see end.js).
          if (message.seat_link && page.seat !== null) {
            // The new table remembers itself under "Your games" once it has checked the seat.
            if (!page.startingAgain) location.assign(message.seat_link);
            return;
          }
          page.next = message.watch_link;
          if (page.state) end.draw();
        },
        problem: (data) => {
          if (data.status === 404) {
            page.gone = true;
            head.turn.textContent = data.error;
          } else say(data.error, "error");
        },
        lost: () => {
          document.body.dataset.live = "no";
          head.connection.textContent = "The connection is lost; reconnecting…";
        },
        back: () => {
          document.body.dataset.live = "yes";
          head.connection.textContent = "";
        },
      });
    })
    .catch((failure) => {
      head.turn.textContent = failure.message;
    });
  identify();
}
