// The game's plain link, for anyone to pass on: whoever opens it watches the game (it cannot act).

import { copyButton, el } from "../dom.js";

export function watchPanel(page) {
  const link = new URL(`/games/${encodeURIComponent(page.id)}`, location.origin).href;
  const input = el("input", { type: "text", readonly: true, id: "watch-link", class: "watch-link", value: link, "aria-label": "Link to watch this game" });
  const [copy, copied] = copyButton(input, link, { id: "watch-copy" });
  const node = el(
    "section",
    { id: "watch", class: "watch", "aria-labelledby": "watch-title" },
    el("h2", { id: "watch-title" }, "Watch link"),
    el("p", { class: "hint" }, "Anyone with this link can watch the game; it plays no seat."),
    el("div", { class: "invite-link" }, input, copy, copied),
  );
  return { node, draw() {} };
}
