// The game table: dice, score sheets, the live connection, and the keys of the terminal game.
// Everything the rules decide (what a box would score, whether a roll or a hold is allowed, whose
// turn it is) comes from the server, and so do the computer's moves, its advice and its verdict
// on how well everyone played; this page only shows them and sends holds and boxes.

import * as api from "./api.js";
import { dieFace } from "./dice.js";
import { el, replace } from "./dom.js";
import { rulesNodes } from "./rules.js";

// One letter per box, in sheet order; h, q and r are left for advice, quitting and rolling.
export const BOX_KEYS = "abcdefgijklmnop";

export function showTable(main, id) {
  const token = new URLSearchParams(location.hash.slice(1)).get("seat") || "";
  const page = {
    id,
    token,
    seat: null, // the seat this page plays, once the server has confirmed the token
    state: null,
    held: new Set(),
    cursor: 0,
    pendingZero: null,
    busy: false,
    announced: 0,
    gone: false,
    warned: false, // the person has agreed that advice keeps the game out of the Hall of Fame
    advice: null, // {version, options} for the dice it was asked about
    proficiency: "not asked", // then "asking", then shown
    limits: null, // the server's limits: name length and the like
  };

  document.body.dataset.busy = "no";
  const turn = el("h1", { id: "turn" }, "Loading the game…");
  const role = el("p", { id: "role" }, token ? "Checking your seat…" : "You are watching this game.");
  const status = el("p", { id: "status", role: "status", "aria-live": "polite" });
  const connection = el("p", { id: "connection", class: "connection", "aria-live": "polite" });
  const computerStatus = el("p", { id: "computer-status", class: "computer-status", "aria-live": "polite" });
  const assisted = el("p", { id: "assisted", class: "assisted", hidden: true });
  const dice = el("div", { id: "dice", class: "dice" });
  const rollButton = el("button", { id: "roll", class: "primary", type: "button" }, "Roll");
  const adviceButton = el(
    "button",
    { id: "ask-advice", type: "button", "aria-keyshortcuts": "h" },
    "Advice",
    el("kbd", {}, " h"),
  );
  const advicePanel = el("section", { id: "advice", class: "advice", "aria-live": "polite" });
  const proficiencyPanel = el("section", { id: "proficiency", class: "proficiency" });
  const sheets = el("div", { class: "scroll" });
  const log = el("ol", { id: "log", class: "log", reversed: true });
  const invitations = el("section", { id: "invitations", class: "invitations" });
  const fame = el("section", { id: "fame", class: "fame" });
  const keys = el(
    "p",
    { class: "keys" },
    "Keys: 1-5 hold a die · space or r roll · a-p (h skipped) or ↑↓ and Enter choose a box · h advice · ? rules",
  );
  replace(
    main,
    el(
      "section",
      { class: "table" },
      turn,
      role,
      connection,
      computerStatus,
      assisted,
      el("div", { class: "board" }, dice, el("div", { class: "controls" }, rollButton, adviceButton)),
      status,
      advicePanel,
      fame,
      proficiencyPanel,
      sheets,
      invitations,
      el("h2", {}, "What happened"),
      log,
      keys,
    ),
  );
  rollButton.addEventListener("click", () => roll());
  adviceButton.addEventListener("click", () => askAdvice());
  showInvitations(invitations, id);

  function say(text, kind = "info") {
    status.textContent = text;
    status.className = kind;
  }

  function mine() {
    const state = page.state;
    return state !== null && page.seat !== null && state.current_player === page.seat && !state.over;
  }

  function openBoxes() {
    const state = page.state;
    if (!state || state.current_player === null) return [];
    return state.players[state.current_player].sheet.filter((entry) => entry.points === null);
  }

  async function act(request) {
    if (page.busy) return;
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
    if (state) {
      say("");
      render(state);
    } else if (page.state) render(page.state);
  }

  function roll() {
    if (!mine()) return;
    page.pendingZero = null;
    const hold = [...page.held].sort();
    act(() => api.roll(id, token, hold));
  }

  function toggleHold(position) {
    const state = page.state;
    if (!mine() || !state.may_hold || position >= state.dice.length) return;
    if (page.held.has(position)) page.held.delete(position);
    else page.held.add(position);
    drawDice();
  }

  function choose(box) {
    if (!mine() || page.state.dice.length === 0) return;
    const entry = openBoxes().find((open) => open.box === box);
    if (!entry) return;
    page.cursor = openBoxes().indexOf(entry);
    if (entry.option === 0 && page.pendingZero !== box) {
      page.pendingZero = box;
      say(`${entry.label} would score 0. Choose it again (or press Enter) to enter the zero.`, "warning");
      drawSheets();
      return;
    }
    page.pendingZero = null;
    act(() => api.score(id, token, box));
  }

  function askAdvice() {
    if (!mine() || page.state.dice.length === 0 || page.busy) return;
    if (page.state.assisted || page.warned) {
      fetchAdvice();
      return;
    }
    // Before the first advice of a game: say what it costs, and ask.
    const yes = el("button", { type: "button", id: "advice-confirm", class: "primary" }, "Ask for advice");
    const no = el("button", { type: "button", id: "advice-cancel" }, "Cancel");
    yes.addEventListener("click", () => {
      page.warned = true;
      fetchAdvice();
    });
    no.addEventListener("click", () => advicePanel.replaceChildren());
    advicePanel.replaceChildren(
      el(
        "div",
        { class: "warning-box", role: "alertdialog", "aria-labelledby": "advice-warning" },
        el(
          "p",
          { id: "advice-warning" },
          "An assisted game cannot enter the Hall of Fame. Once anyone asks the computer for advice, " +
            "this game is assisted for good. Ask anyway?",
        ),
        yes,
        " ",
        no,
      ),
    );
    yes.focus();
  }

  async function fetchAdvice() {
    advicePanel.replaceChildren(el("p", {}, "Asking the computer…"));
    let result = null;
    page.busy = true;
    document.body.dataset.busy = "yes";
    try {
      result = await api.advice(id, token);
    } catch (failure) {
      advicePanel.replaceChildren();
      say(failure.message, "error");
    } finally {
      page.busy = false;
      document.body.dataset.busy = "no";
    }
    if (result) {
      page.advice = { version: result.game.version, options: result.options };
      render(result.game);
    } else if (page.state) render(page.state);
  }

  function drawAdvice() {
    const advice = page.advice;
    const current = advice && mine() && advice.version === page.state.version;
    adviceButton.disabled = !mine() || page.state.dice.length === 0 || page.busy;
    if (!current) {
      // Advice is about the dice it was asked for; once they change it is gone.
      if (advice) {
        page.advice = null;
        advicePanel.replaceChildren();
      }
      return;
    }
    if (advicePanel.querySelector("#advice-options")) return;
    advicePanel.replaceChildren(
      el("h2", {}, "The computer's advice"),
      el("p", { class: "hint" }, "Every choice with the final total it expects, best first."),
      el(
        "ol",
        { id: "advice-options", class: "advice-options" },
        advice.options.map((option, rank) =>
          el(
            "li",
            { class: rank === 0 ? "best" : null },
            el("span", { class: "words" }, option.words),
            el("span", { class: "expected" }, ` expects ${option.expected.toFixed(1)}`),
            rank === 0 ? el("strong", { class: "best-mark" }, " best") : null,
          ),
        ),
      ),
    );
  }

  function drawDice() {
    const state = page.state;
    const playing = mine();
    replace(
      dice,
      state.dice.map((die, position) => {
        const held = page.held.has(position);
        const button = el(
          "button",
          {
            type: "button",
            class: `die${held ? " held" : ""}`,
            dataset: { position: String(position), face: String(die.face) },
            "aria-pressed": held ? "true" : "false",
            "aria-label": `Die ${position + 1}: ${die.face} ${die.colour}${held ? ", held" : ""}`,
            disabled: !playing || !state.may_hold,
          },
          dieFace(die),
          el("span", { class: "die-caption" }, held ? "held" : `${position + 1}`),
        );
        button.addEventListener("click", () => toggleHold(position));
        return button;
      }),
    );
    if (state.dice.length === 0) dice.append(el("p", { class: "no-dice" }, "No dice on the table yet."));
    rollButton.disabled = !playing || !state.may_roll || page.busy;
    rollButton.textContent = state.may_roll ? `Roll (${state.rolls_left} left)` : "No rolls left: choose a box";
  }

  function drawSheets() {
    const state = page.state;
    const open = openBoxes();
    const selected = mine() ? open[Math.min(page.cursor, open.length - 1)] : undefined;
    const head = el(
      "tr",
      {},
      el("th", { scope: "col" }, "Box"),
      state.players.map((player) =>
        el(
          "th",
          {
            scope: "col",
            class: player.seat === state.current_player ? "current" : null,
            dataset: { seat: String(player.seat) },
          },
          el("span", { class: "player-name" }, player.name),
          player.seat === page.seat ? el("span", { class: "you" }, " (you)") : null,
          player.computer ? el("span", { class: "level" }, ` (computer, ${player.computer})`) : null,
        ),
      ),
    );
    const rows = [];
    const summary = (label, value) =>
      el(
        "tr",
        { class: "summary" },
        el("th", { scope: "row" }, label),
        state.players.map((player) => el("td", {}, value(player))),
      );
    state.players[0].sheet.forEach((first, index) => {
      const key = BOX_KEYS[index];
      rows.push(
        el(
          "tr",
          { class: selected && selected.box === first.box ? "selected" : null, dataset: { box: first.box } },
          el("th", { scope: "row" }, el("kbd", {}, key), ` ${first.label}`),
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
    replace(sheets, el("table", { class: "sheet", id: "sheet" }, el("thead", {}, head), el("tbody", {}, rows)));
  }

  function cell(player, entry) {
    const state = page.state;
    const attributes = {
      dataset: { seat: String(player.seat), box: entry.box },
      class: player.seat === state.current_player ? "current" : null,
    };
    if (entry.points !== null) return el("td", attributes, el("span", { class: "entry" }, entry.points));
    if (entry.option === null) return el("td", attributes);
    const label = `${entry.label}: ${entry.option} points`;
    if (!mine()) return el("td", attributes, el("span", { class: "option", title: label }, entry.option));
    const button = el(
      "button",
      {
        type: "button",
        class: `option${page.pendingZero === entry.box ? " confirm" : ""}`,
        "aria-label": `Score ${label}`,
      },
      entry.option,
    );
    button.addEventListener("click", () => choose(entry.box));
    return el("td", attributes, button);
  }

  function name(seat) {
    return page.state.players[seat].name;
  }

  // Every event comes with its sentence from the server: this page writes none of its own.
  function drawLog() {
    const events = page.state.events;
    const fresh = events.slice(page.announced);
    page.announced = events.length;
    for (const event of fresh) log.prepend(el("li", {}, event.text));
    while (log.children.length > 40) log.lastChild.remove();
    const big = fresh.find((event) => event.kind === "second_kismet");
    if (big) say(big.text, "announce");
  }

  function drawTurn() {
    const state = page.state;
    if (state.over) {
      turn.textContent = state.result;
      return;
    }
    const player = state.players[state.current_player];
    const who = mine()
      ? "Your turn"
      : `${player.name}'s turn${player.computer ? ` (computer, ${player.computer})` : ""}`;
    turn.textContent = `Round ${state.round} · ${who}`;
  }

  function drawFame() {
    const state = page.state;
    if (!state.over || page.seat === null || !state.hall_of_fame.includes(page.seat)) {
      if (fame.dataset.asked !== "answered") fame.replaceChildren();
      return;
    }
    if (fame.childElementCount) return;
    const input = el("input", {
      type: "text",
      id: "fame-name",
      maxlength: page.limits.max_name_length,
      value: state.players[page.seat].name,
      "aria-label": "Your name for the Hall of Fame",
    });
    const error = el("p", { class: "error", role: "alert" });
    const answer = async (name) => {
      try {
        const result = await api.enterHall(id, token, name);
        fame.dataset.asked = "answered";
        fame.replaceChildren(
          el(
            "p",
            { id: "fame-result" },
            result.told.length ? `${result.told.join(" ")} ` : "No entry made. ",
            el("a", { href: "/hall" }, "See the Hall of Fame"),
          ),
        );
        render(result.game);
      } catch (failure) {
        error.textContent = failure.message;
      }
    };
    const form = el(
      "form",
      { id: "fame-form" },
      el("h2", {}, "Your total makes the Hall of Fame!"),
      el("label", { for: "fame-name" }, "Name: "),
      input,
      " ",
      el("button", { type: "submit", class: "primary", id: "fame-enter" }, "Enter"),
      " ",
      el("button", { type: "button", id: "fame-decline", onclick: () => answer(null) }, "No thanks"),
      error,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      answer(input.value);
    });
    fame.replaceChildren(form);
    input.focus();
  }

  function drawComputer() {
    const state = page.state;
    computerStatus.textContent =
      state.computer === "getting_ready"
        ? "The computer is getting ready: the first time on a server it works out its strategy, " +
          "which takes a few seconds."
        : state.computer === "unavailable"
          ? `The computer cannot play or advise on this server: ${state.computer_problem || "it failed to get ready"}.`
          : "";
    assisted.hidden = !state.assisted;
    assisted.textContent = state.assisted
      ? "Assisted game: the computer gave advice, so this game cannot enter the Hall of Fame."
      : "";
  }

  async function drawProficiency() {
    if (!page.state.over || page.proficiency !== "not asked") return;
    page.proficiency = "asking";
    proficiencyPanel.replaceChildren(el("p", {}, "Working out how well everyone played…"));
    let measured;
    try {
      measured = await api.proficiency(id);
    } catch (failure) {
      page.proficiency = "not asked";
      proficiencyPanel.replaceChildren(el("p", { class: "error" }, failure.message));
      return;
    }
    page.proficiency = "shown";
    proficiencyPanel.replaceChildren(
      el("h2", {}, "How well everyone played"),
      el(
        "p",
        { class: "hint" },
        "Expected points each player's choices gave away against perfect play (0 is perfect), " +
          "and the choices that cost most.",
      ),
      el(
        "ul",
        { id: "proficiency-players" },
        measured.players.map((player) =>
          el(
            "li",
            { dataset: { seat: String(player.seat) } },
            el("span", { class: "player-name" }, player.name),
            player.computer ? ` (computer, ${player.computer})` : "",
            ": ",
            el("strong", { class: "loss" }, player.expected_loss.toFixed(1)),
            ` points lost over ${player.decisions} choices`,
            player.costliest.length
              ? el(
                  "ol",
                  { class: "costliest" },
                  player.costliest.map((decision) => el("li", {}, decision.text)),
                )
              : el("span", {}, " (no costly choice)"),
          ),
        ),
      ),
    );
  }

  function render(state) {
    if (page.state && state.version < page.state.version) return;
    const previous = page.state;
    if (!previous || state.current_player !== previous.current_player || state.dice.length === 0) {
      page.held.clear();
      page.cursor = 0;
      page.pendingZero = null;
    }
    page.state = state;
    if (previous === null) page.announced = 0;
    drawTurn();
    drawComputer();
    drawDice();
    drawAdvice();
    drawSheets();
    drawLog();
    drawFame();
    drawProficiency();
  }

  async function identify() {
    if (!token) return;
    try {
      const seat = await api.seat(id, token);
      page.seat = seat.seat;
      role.textContent = `You play ${seat.name}. Keep your link to come back to your seat.`;
    } catch (failure) {
      role.textContent = `${failure.message}. You are watching this game.`;
    }
    if (page.state) render(page.state);
  }

  // A change: the new events, the turn as it is now and the sheets it touched. A page that
  // missed one (its version is not the one the change extends) asks for the whole game again.
  function update(socket, change) {
    const state = page.state;
    if (!state || change.version <= state.version) return;
    if (change.since !== state.version) {
      socket.send(JSON.stringify({ type: "sync" }));
      return;
    }
    const touched = new Map(change.players.map((player) => [player.seat, player]));
    render({
      ...state,
      ...change.turn,
      version: change.version,
      players: state.players.map((player) => touched.get(player.seat) || player),
      events: [...state.events, ...change.events],
    });
    if (change.news.length) say(change.news.join(" "), "announce");
  }

  let retry = 500;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/live`);
    socket.addEventListener("open", () => {
      retry = 500;
      connection.textContent = "";
      document.body.dataset.live = "yes";
    });
    socket.addEventListener("message", (message) => {
      const data = JSON.parse(message.data);
      if (data.type === "state") render(data.game);
      else if (data.type === "update") update(socket, data);
      else if (data.type === "error") {
        if (data.status === 404) {
          page.gone = true;
          turn.textContent = data.error;
        } else say(data.error, "error");
      }
    });
    socket.addEventListener("close", () => {
      document.body.dataset.live = "no";
      if (page.gone) return;
      connection.textContent = "The connection is lost; reconnecting…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    });
  }

  const dialog = document.getElementById("rules-dialog");
  async function toggleRules() {
    if (dialog.open) {
      dialog.close();
      return;
    }
    const text = document.getElementById("rules-text");
    if (!text.childElementCount) {
      try {
        text.replaceChildren(...(await rulesNodes()));
      } catch (failure) {
        text.replaceChildren(el("p", { class: "error" }, failure.message));
      }
    }
    dialog.showModal();
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (event.key === "?") {
      event.preventDefault();
      toggleRules();
      return;
    }
    if (dialog.open || !page.state) return;
    const key = event.key.toLowerCase();
    if (/^[1-5]$/.test(key)) toggleHold(Number(key) - 1);
    else if (key === "h") askAdvice();
    else if (key === " " || key === "r") {
      event.preventDefault();
      roll();
    } else if (BOX_KEYS.includes(key) && key.length === 1) {
      const entry = page.state.players[0].sheet[BOX_KEYS.indexOf(key)];
      choose(entry.box);
    } else if (key === "arrowdown" || key === "arrowup") {
      if (!mine()) return;
      event.preventDefault();
      const count = openBoxes().length;
      page.cursor = (page.cursor + (key === "arrowdown" ? 1 : count - 1)) % count;
      page.pendingZero = null;
      drawSheets();
    } else if (key === "enter") {
      if (!mine() || event.target instanceof HTMLButtonElement) return;
      const open = openBoxes();
      const selected = page.pendingZero || (open[page.cursor] && open[page.cursor].box);
      if (selected) choose(selected);
    }
  });

  Promise.all([api.getGame(id), api.limits()])
    .then(([state, limits]) => {
      page.limits = limits;
      render(state);
      connect();
    })
    .catch((failure) => {
      turn.textContent = failure.message;
    });
  identify();
}

function showInvitations(section, id) {
  let invitations = null;
  try {
    invitations = JSON.parse(sessionStorage.getItem(`kismet-invitations-${id}`) || "null");
  } catch {
    invitations = null;
  }
  if (!Array.isArray(invitations) || invitations.length < 2) return;
  const absolute = (link) => new URL(link, location.origin).href;
  section.append(
    el("h2", {}, "Invitations"),
    el("p", {}, "Send each player their own link: whoever holds it plays that seat. The game's plain link only watches."),
    el(
      "ul",
      {},
      invitations.slice(1).map((invitation) =>
        el(
          "li",
          {},
          el("span", { class: "player-name" }, invitation.name),
          ": ",
          el("input", {
            type: "text",
            readonly: true,
            class: "invitation",
            value: absolute(invitation.link),
            dataset: { seat: String(invitation.seat) },
            "aria-label": `Invitation link for ${invitation.name}`,
          }),
        ),
      ),
      el("li", {}, "Watchers: ", el("input", { type: "text", readonly: true, value: absolute(`/games/${id}`) })),
    ),
  );
}
