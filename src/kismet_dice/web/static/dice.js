// A die as SVG: pips in the face's colour, and the colour's letter (B, R, G) for
// players who cannot tell red from green.

const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 28], [72, 28], [28, 50], [72, 50], [28, 72], [72, 72]],
};

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

export function dieFace(die) {
  const picture = svg("svg", { viewBox: "0 0 100 100", class: `die-face pips-${die.colour}`, "aria-hidden": "true" });
  picture.append(svg("rect", { x: 3, y: 3, width: 94, height: 94, rx: 16, class: "die-body" }));
  for (const [cx, cy] of PIPS[die.face] || []) picture.append(svg("circle", { cx, cy, r: 9, class: "pip" }));
  const mark = svg("text", { x: 50, y: 95, "text-anchor": "middle", class: "die-letter" });
  mark.textContent = die.letter;
  picture.append(mark);
  return picture;
}
