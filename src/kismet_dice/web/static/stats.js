// Statistics of the finished games kept by this server: every name (/stats), one name (/stats/NAME)
// with its figures and its three charts (SVG made on the server, shown as images).

import { chartReference, stats, words } from "./api.js";
import { el } from "./dom.js";

const one = (value) => (value === null || value === undefined ? "–" : Number(value).toFixed(1));
const share = (value) => (value === null || value === undefined ? "–" : `${Math.round(value * 100)}%`);
const link = (name) => el("a", { href: `/stats/${encodeURIComponent(name)}` }, name);

function header(...names) {
  return el("thead", {}, el("tr", {}, names.map((name) => el("th", { scope: "col" }, name))));
}

export async function showStats(main) {
  try {
    const { players } = await stats();
    const body = players.length
      ? el(
          "table",
          { class: "sheet stats", id: "stats" },
          header("Name", "Games", "Mean", "Best", "Worst", "Last ten", "Kismet", "Assisted"),
          el(
            "tbody",
            {},
            players.map((player) =>
              el(
                "tr",
                {},
                el("td", { class: "player-name" }, link(player.name)),
                el("td", {}, player.games),
                el("td", {}, one(player.mean)),
                el("td", {}, player.best ?? "–"),
                el("td", {}, player.worst ?? "–"),
                el("td", {}, one(player.recent_mean)),
                el("td", {}, share(player.kismet_rate)),
                el("td", {}, player.assisted),
              ),
            ),
          ),
        )
      : el("p", { id: "stats" }, "No game has been played to the end here yet.");
    // Before any game is finished, what there is to aim at: the totals of perfect play and of the
    // computer's medium and easy players (where the server has the strategy table to play them).
    const known = players.length ? null : await chartReference().catch(() => null);
    const aim = known && known.available ? referenceFigure() : null;
    main.replaceChildren(
      el("h1", {}, "Statistics"),
      el("p", {}, "Finished games of people; games played with the computer's advice are counted apart."),
      body,
      ...(aim ? [aim] : []),
    );
    if (aim) tellWhileDrawing([aim]);
  } catch (failure) {
    main.replaceChildren(el("h1", {}, "Statistics"), el("p", { class: "error" }, failure.message));
  }
}

const REFERENCE_CAPTION = "Totals of perfect play and the medium and easy players: what there is to aim at";

function referenceFigure() {
  const figure = el("figure", { class: "chart", id: "reference-chart" }, el("p", { class: "drawing" }, "Drawing the chart…"), el("figcaption", {}, REFERENCE_CAPTION));
  chart(figure, "/api/chart-reference/totals.svg", "reference", REFERENCE_CAPTION);
  return figure;
}

const CHARTS = [
  ["totals", "Totals against perfect play and the medium and easy players"],
  ["time", "Totals game by game against the mean of perfect play"],
  ["boxes", "Mean points per box against perfect play"],
];

// A chart drawn into the page rather than shown as an image, so the page's style sheet colours it
// for the theme (see .chart in style.css). The SVG is the server's, parsed as SVG (never run as
// markup of the page); its title and description take ids of their own, one chart beside another.
export async function chart(figure, path, kind, label) {
  let svg;
  try {
    const response = await fetch(path);
    if (!response.ok) throw new Error();
    svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
    if (svg.localName !== "svg") throw new Error();
  } catch {
    const drawing = figure.querySelector(".drawing");
    drawing.textContent = `The chart could not be drawn: ${label}.`;
    drawing.classList.replace("drawing", "undrawn"); // no longer waited for
    return;
  }
  const picture = document.importNode(svg, true);
  picture.id = `chart-${kind}`;
  picture.setAttribute("aria-label", label);
  picture.removeAttribute("aria-labelledby");
  for (const part of picture.querySelectorAll("[id]")) part.id = `chart-${kind}-${part.id}`;
  figure.querySelector(".drawing").replaceWith(picture);
}

function figures(player) {
  const rows = [
    ["Games counted", player.games],
    ["Assisted games (not counted)", player.assisted],
    ["Mean", one(player.mean)],
    ["Best", player.best ?? "–"],
    ["Worst", player.worst ?? "–"],
    ["Standard deviation", one(player.std)],
    ["Mean of the last ten", one(player.recent_mean)],
    ["Kismet scored", share(player.kismet_rate)],
    ["Second Kismets", player.second_kismets],
    ...Object.entries(player.bonus_rate).map(([tier, rate]) => [`Bonus ${tier}`, share(rate)]),
  ];
  return el(
    "table",
    { class: "sheet stats-figures", id: "figures" },
    el("tbody", {}, rows.map(([what, value]) => el("tr", {}, el("th", { scope: "row" }, what), el("td", {}, value)))),
  );
}

// The first time on a server a chart waits for the games it compares with (seconds): while any
// chart is still being drawn, its place says how far they are, in the server's words.
async function tellWhileDrawing(figures) {
  const said = await words().catch(() => null);
  if (!said) return;
  const pending = () => figures.map((figure) => figure.querySelector(".drawing")).filter(Boolean);
  while (pending().length && figures[0].isConnected) { // until drawn, or the page shows another view
    const known = await chartReference().catch(() => null);
    if (known && known.playing) {
      const done = known.progress === null ? "" : ` ${Math.floor(100 * known.progress)}%`;
      for (const drawing of pending()) drawing.textContent = `${said.playing_reference}${done}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export async function showPlayerStats(main, name) {
  try {
    const [player] = (await stats(name)).players;
    const path = `/api/stats/${encodeURIComponent(name)}/chart`;
    const drawn = player.games
      ? CHARTS.map(([kind, caption]) => {
          const figure = el("figure", { class: "chart" }, el("p", { class: "drawing" }, "Drawing the chart…"), el("figcaption", {}, caption));
          chart(figure, `${path}/${kind}.svg`, kind, `${caption}, for ${player.name}`);
          return figure;
        })
      : [];
    main.replaceChildren(
      el("h1", {}, `Statistics of ${player.name}`),
      el("p", {}, el("a", { href: "/stats" }, "Every player")),
      figures(player),
      ...(drawn.length ? drawn : [el("p", {}, "No game without advice to draw yet.")]),
    );
    if (drawn.length) tellWhileDrawing(drawn);
  } catch (failure) {
    main.replaceChildren(el("h1", {}, "Statistics"), el("p", { class: "error" }, failure.message));
  }
}
