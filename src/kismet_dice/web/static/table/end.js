// The end of a game: the totals, best first, with the winners marked; the Hall of Fame prompt for
// a seat whose total qualifies; how well everyone played (one card a player); and a new game with
// the same players.

import * as api from "../api.js";
import { el, replace } from "../dom.js";
import { remember } from "../games.js";
import { levelNote, namedWinner } from "./state.js";

export function endPanel(page, actions) {
  const totals = el("ol", { id: "totals", class: "totals" });
  const standings = el("ul", { id: "standings", class: "standings" });
  const fame = el("section", { id: "fame", class: "fame" });
  const verdict = el("section", { id: "proficiency", class: "proficiency" });
  const again = el("div", { id: "again", class: "again" });
  const section = el(
    "section",
    { id: "end", class: "end", hidden: true, "aria-labelledby": "end-title" },
    el("h2", { id: "end-title" }, "Final totals"),
    totals,
    standings,
    fame,
    verdict,
    again,
  );
  let asked = "not asked";
  let answered = false;
  let comparedLines = [];

  function drawTotals() {
    const state = page.state;
    const ranked = [...state.players].sort((a, b) => b.total - a.total);
    replace(
      totals,
      ranked.map((player) =>
        el(
          "li",
          { class: state.winners.includes(player.seat) ? "winner" : null },
          el("span", { class: "rank", "aria-hidden": "true" }, `${ranked.filter((other) => other.total > player.total).length + 1}.`),
          el("span", { class: "player-name" }, player.name),
          el("span", { class: "points" }, player.total),
          namedWinner(state, player.seat) ? el("strong", { class: "badge" }, "wins") : null,
        ),
      ),
    );
    // How each person's total compares with perfect play, in the server's words, one a line: the
    // game's, or where the server had not worked them out yet, those the review brought.
    const lines = state.standings && state.standings.length ? state.standings : comparedLines;
    replace(standings, lines.map((line) => el("li", {}, line)));
  }

  function drawFame() {
    const state = page.state;
    if (answered || page.seat === null || !state.hall_of_fame.includes(page.seat)) return;
    if (fame.childElementCount) return;
    const input = el("input", {
      type: "text",
      id: "fame-name",
      maxlength: page.limits.max_name_length,
      value: state.players[page.seat].name,
    });
    const error = el("p", { class: "error", role: "alert" });
    const answer = async (name) => {
      try {
        const result = await api.enterHall(page.id, page.token, name);
        answered = true;
        // Said here, and not in the status line too: an update that brought the same news first
        // is taken back from there, and one that comes later is not said (see index.js).
        if (result.told.some((text) => page.newsShown.has(text))) actions.say("");
        for (const text of result.told) page.newsShown.add(text);
        fame.replaceChildren(
          el(
            "p",
            { id: "fame-result" },
            result.told.length ? `${result.told.join(" ")} ` : "No entry made. ",
            el("a", { href: "/hall" }, "See the Hall of Fame"),
          ),
        );
        actions.render(result.game);
      } catch (failure) {
        error.textContent = failure.message;
      }
    };
    const form = el(
      "form",
      { id: "fame-form" },
      el("h3", {}, "Your total makes the Hall of Fame!"),
      el("label", { for: "fame-name" }, "Your name for the Hall of Fame:"),
      // The name and its two answers in one row that wraps: on a phone the label above stays clear
      // of the field's focus ring, and a button that wraps keeps a gap from the field.
      el(
        "div",
        { class: "fame-entry" },
        input,
        el("button", { type: "submit", class: "primary", id: "fame-enter" }, "Enter"),
        el("button", { type: "button", id: "fame-decline", onclick: () => answer(null) }, "No thanks"),
      ),
      error,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      answer(input.value);
    });
    fame.replaceChildren(form);
    input.focus();
  }

  async function drawVerdict() {
    if (asked !== "not asked") return;
    asked = "asking";
    page.askedComputer = true;
    verdict.replaceChildren(el("p", {}, "Working out how well everyone played…"));
    let measured;
    try {
      measured = await api.proficiency(page.id);
    } catch (failure) {
      asked = "not asked";
      verdict.replaceChildren(el("p", { class: "error" }, failure.message));
      return;
    }
    asked = "shown";
    comparedLines = measured.standings || [];
    drawTotals();
    verdict.replaceChildren(
      el("h3", {}, "How well everyone played"),
      el(
        "p",
        { class: "hint" },
        "Expected points each player's choices gave away against perfect play (0 is perfect), and the choices that cost most.",
      ),
      el(
        "ul",
        { id: "proficiency-players", class: "review" },
        measured.players.map((player) =>
          el(
            "li",
            { class: "review-card", dataset: { seat: String(player.seat) } },
            el(
              "h4",
              {},
              el("span", { class: "player-name" }, player.name),
              levelNote(player) ? el("span", { class: "level" }, levelNote(player)) : null,
            ),
            el("p", {}, el("strong", { class: "loss" }, player.expected_loss.toFixed(1)), ` points lost over ${player.decisions} choices`),
            player.costliest.length
              ? el("ol", { class: "costliest" }, player.costliest.map((decision) => el("li", {}, decision.text)))
              : el("p", {}, "No costly choice."),
          ),
        ),
      ),
    );
  }

  function drawAgain() {
    if (page.next) {
      replace(
        again,
        el("p", { id: "next-game" }, "A new game with the same players has begun. ", el("a", { href: page.next }, "Watch it"), "."),
      );
      return;
    }
    if (page.seat === null || again.childElementCount) return;
    const button = el("button", { type: "button", id: "play-again", class: "primary big" }, "Play again with the same players");
    button.addEventListener("click", async () => {
      page.startingAgain = true;
      try {
        const game = await api.again(page.id, page.token);
        const mineNext = game.invitations.find((invitation) => invitation.seat === page.seat);
        const link = mineNext ? mineNext.link : game.watch_link;
        remember(game.id, {
          link,
          names: game.game.players.map((player) => player.name),
          invitations: game.invitations.filter((invitation) => invitation.seat !== page.seat),
        });
        location.assign(link);
      } catch (failure) {
        page.startingAgain = false;
        actions.say(failure.message, "error");
      }
    });
    replace(again, button);
  }

  function draw() {
    const state = page.state;
    section.hidden = !state.over;
    if (!state.over) return;
    remember(page.id, { over: true });
    drawTotals();
    drawFame();
    drawVerdict();
    drawAgain();
  }

  return { node: section, draw };
}
