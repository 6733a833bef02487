// The computer's advice: first its price (an assisted game stays out of the Hall of Fame), then
// every choice with the total it expects, best first, and late in a game its chance of a Hall of
// Fame total (worked out after the options come). The dice it would keep are marked on the table
// and the box it would fill on the sheet.

import { el, replace } from "../dom.js";
import { mine } from "./state.js";

export function advicePanel(page, actions) {
  const panel = el("section", { id: "advice", class: "advice", "aria-live": "polite" });

  function warn() {
    const yes = el("button", { type: "button", id: "advice-confirm", class: "primary" }, "Ask for advice");
    const no = el("button", { type: "button", id: "advice-cancel" }, "Cancel");
    yes.addEventListener("click", () => {
      page.warned = true;
      actions.fetchAdvice();
    });
    no.addEventListener("click", () => panel.replaceChildren());
    panel.replaceChildren(
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

  const asking = () => panel.replaceChildren(el("p", {}, "Asking the computer…"));
  let drawn = null; // the advice drawn last: drawn again only when it changes (its chances came)
  const clear = () => {
    drawn = null;
    panel.replaceChildren();
  };

  function draw() {
    const advice = page.advice;
    if (!advice || !mine(page) || advice.version !== page.state.version) {
      // Advice is about the dice it was asked for; once they change it is gone.
      if (advice || drawn) {
        page.advice = null;
        clear();
      }
      return;
    }
    if (drawn === advice) return;
    drawn = advice;
    const hall = advice.hall;
    const words = page.words;
    const percent = (chance) => `${(100 * chance).toFixed(1)}%`;
    // The terminal's table: the rank ("best", 2, 3 ...), the option, its expected final total and
    // what it gives away against the best, in the same words (the server's, written once).
    const columns = words ? words.advice_columns : ["", "Option", "Expected", "Gives away"];
    const best = advice.options.length ? advice.options[0].expected : 0;
    const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
    const rows = advice.options.map((option, rank) => {
      const play = el("button", { type: "button", class: "play-option", dataset: { rank: String(rank) } }, capital(option.words));
      play.addEventListener("click", () => actions.playOption(rank));
      play.addEventListener("focus", () => {
        advice.highlighted = rank;
      });
      const classes = [rank === 0 ? "best" : null, rank === hall.best ? "best-hall" : null].filter(Boolean).join(" ");
      return el(
        "tr",
        { class: classes || null },
        el("td", { class: "rank" }, rank === 0 ? (words ? words.advice_best : "best") : String(rank + 1)),
        el("td", { class: "words" }, play),
        el("td", { class: "expected" }, option.expected.toFixed(2)),
        el("td", { class: "loss" }, rank === 0 ? "—" : (best - option.expected).toFixed(2)),
        hall.heading
          ? el(
              "td",
              { class: "chance", title: `chance of a ${hall.heading}` },
              option.chance === null ? "…" : percent(option.chance),
              rank === hall.best && hall.best_mark ? el("strong", { class: "hall-mark" }, ` ${hall.best_mark}`) : null,
            )
          : null,
        option.win_chance !== null && option.win_chance !== undefined
          ? el("td", { class: "win-chance" }, percent(option.win_chance))
          : null,
      );
    });
    const winning = advice.options.some((option) => option.win_chance !== null && option.win_chance !== undefined);
    // replace() drops the missing lines (replaceChildren would write "null" for them).
    replace(
      panel,
      el("h2", {}, words ? words.advice_title : "Advice"),
      el(
        "table",
        { id: "advice-options", class: "advice-options" },
        el("thead", {}, el("tr", {}, columns.map((heading) => el("th", { scope: "col" }, heading)), hall.heading ? el("th", { scope: "col" }, hall.heading) : null, winning ? el("th", { scope: "col" }, words ? words.win_column : "Win chance") : null)),
        el("tbody", {}, rows),
      ),
      el("p", { id: "advice-keys", class: "hint" }, words ? words.advice_keys : ""),
      hall.line ? el("p", { id: "advice-hall", class: "hint" }, hall.line) : null,
      hall.tip ? el("p", { id: "advice-hall-tip", class: "hint" }, hall.tip) : null,
    );
    // The best option is highlighted first, as in the terminal: Enter plays it.
    const first = panel.querySelector(".play-option");
    if (first && !advice.highlighted) first.focus();
  }

  return { node: panel, draw, warn, asking, clear };
}
