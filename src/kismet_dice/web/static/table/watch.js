// The game's plain link, for anyone to pass on: whoever opens it watches the game (it cannot act).

import { el } from "../dom.js";

export function watchPanel(page) {
  const link = new URL(`/games/${encodeURIComponent(page.id)}`, location.origin).href;
  const input = el("input", { type: "text", readonly: true, id: "watch-link", class: "watch-link", value: link, "aria-label": "Link to watch this game" });
  const copied = el("span", { class: "copied", role: "status" });
  const copy = el("button", { type: "button", class: "copy", id: "watch-copy" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = "Copied";
    } catch {
      input.select();
      copied.textContent = "Select the link and copy it";
    }
  });
  const node = el(
    "section",
    { id: "watch", class: "watch", "aria-labelledby": "watch-title" },
    el("h2", { id: "watch-title" }, "Watch link"),
    el("p", { class: "hint" }, "Anyone with this link can watch the game; it plays no seat."),
    el("div", { class: "invite-link" }, input, copy, copied),
  );
  return { node, draw() {} };
}
