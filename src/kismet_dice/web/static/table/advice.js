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
    const percent = (chance) => `${(100 * chance).toFixed(1)}%`;
    // replace() drops the missing lines (replaceChildren would write "null" for them).
    replace(
      panel,
      el("h2", {}, "The computer's advice"),
      el(
        "p",
        { class: "hint" },
        hall.heading
          ? `Every choice with the final total it expects and its chance of a ${hall.heading}, best first; ` +
              "the best is marked on the table."
          : "Every choice with the final total it expects, best first; the best is marked on the table.",
      ),
      el(
        "ol",
        { id: "advice-options", class: "advice-options" },
        advice.options.map((option, rank) =>
          el(
            "li",
            { class: [rank === 0 ? "best" : null, rank === hall.best ? "best-hall" : null].filter(Boolean).join(" ") || null },
            el("span", { class: "words" }, option.words),
            el("span", { class: "expected" }, ` expects ${option.expected.toFixed(1)}`),
            hall.heading
              ? el(
                  "span",
                  { class: "chance", title: `chance of a ${hall.heading}` },
                  option.chance === null ? " · …" : ` · ${percent(option.chance)} to reach ${hall.target}+`,
                )
              : null,
            rank === 0 ? el("strong", { class: "best-mark" }, " best") : null,
            rank === hall.best && hall.best_mark
              ? el("strong", { class: "hall-mark" }, `${rank === 0 ? " ·" : ""} ${hall.best_mark}`)
              : null,
          ),
        ),
      ),
      hall.line ? el("p", { id: "advice-hall", class: "hint" }, hall.line) : null,
      hall.tip ? el("p", { id: "advice-hall-tip", class: "hint" }, hall.tip) : null,
    );
  }

  return { node: panel, draw, warn, asking, clear };
}
