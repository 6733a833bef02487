// The Hall of Fame: the ten best game totals kept by this server.

import { hall } from "./api.js";
import { el } from "./dom.js";

// As the terminal shows it: YYYY-MM-DD HH:MM, local time. The date and the time each stay whole:
// in a narrow column (a phone's) the line breaks between them, not after a hyphen of the date.
const two = (n) => String(n).padStart(2, "0");
function when(iso) {
  const d = new Date(iso);
  const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return [el("span", {}, date), " ", el("span", {}, `${two(d.getHours())}:${two(d.getMinutes())}`)];
}

// Each column's heading and how it reads: numbers aligned right, under a heading aligned with them.
const COLUMNS = [
  ["#", "number"],
  ["Name", "player-name"],
  ["Total", "number"],
  ["Date", "when"],
  ["Players", "number"],
];

export async function showHall(main) {
  try {
    const entries = await hall();
    const body = entries.length
      ? el(
          "table",
          { class: "sheet hall", id: "hall" },
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              COLUMNS.map(([heading, kind]) => el("th", { scope: "col", class: kind }, heading)),
            ),
          ),
          el(
            "tbody",
            {},
            entries.map((entry) =>
              el(
                "tr",
                {},
                el("td", { class: "number" }, entry.rank),
                el("td", { class: "player-name" }, entry.name),
                el("td", { class: "number" }, entry.total),
                el("td", { class: "when" }, when(entry.date)),
                el("td", { class: "number" }, entry.players),
              ),
            ),
          ),
        )
      : el("p", { id: "hall" }, "No one is in the Hall of Fame yet.");
    main.replaceChildren(el("h1", {}, "Hall of Fame"), body);
  } catch (failure) {
    main.replaceChildren(el("p", { class: "error" }, failure.message));
  }
}
