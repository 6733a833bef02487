"""How a page looks, measured in the browser: the contrast of an element's text (and of its
background against what lies behind it) from computed styles, WCAG's way, and element boxes."""

from __future__ import annotations

from typing import TypedDict

from playwright.sync_api import Page

# Colours as the browser computes them (rgb()/rgba()); a background is what the element and its
# ancestors paint, blended from the page's white up; a fill or stroke of SVG counts as a colour too.
_CONTRAST = """
([selector, textProperty, backProperty]) => {
  const parse = (value) => {
    const found = /rgba?\\(([^)]+)\\)/.exec(value);
    if (!found) return [0, 0, 0, 0];
    const parts = found[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const blend = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (light + 0.05) / (dark + 0.05);
  };
  const behind = (node) => {
    const layers = [];
    for (let at = node; at; at = at.parentElement) {
      const colour = parse(getComputedStyle(at).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    return layers.reverse().reduce((under, layer) => blend(layer, under), [255, 255, 255, 1]);
  };
  const node = document.querySelector(selector);
  if (!node) return null;
  const white = [255, 255, 255, 1];
  const own = backProperty && getComputedStyle(document.querySelector(backProperty[0]))[backProperty[1]];
  const back = backProperty ? blend(parse(own), white) : behind(node);
  const text = blend(parse(getComputedStyle(node)[textProperty]), back);
  return { text: ratio(text, back), edge: node.parentElement ? ratio(back, behind(node.parentElement)) : 1 };
}
"""


class Contrast(TypedDict):
    text: float
    """The text's colour against the element's background."""
    edge: float
    """The element's background against its parent's: how well the element stands out."""


def contrast(page: Page, selector: str, text: str = "color", back: tuple[str, str] | None = None) -> Contrast:
    """The contrast of the first element matching ``selector``; ``text`` names the computed
    property of its colour (``fill`` for SVG text), ``back`` a (selector, property) whose colour
    is the background instead of the element's own (an SVG's background rectangle, say)."""
    measured = page.evaluate(_CONTRAST, [selector, text, list(back) if back else None])
    assert measured is not None, f"{selector} is not on the page"
    return Contrast(text=float(measured["text"]), edge=float(measured["edge"]))


class Box(TypedDict):
    x: float
    y: float
    width: float
    height: float


def box(page: Page, selector: str) -> Box:
    """The box of the first element matching ``selector``, looked up again while the table is
    being drawn again (an element replaced just as it is measured has no box)."""
    for _ in range(50):
        found = page.locator(selector).first.bounding_box()
        if found is not None:
            return Box(x=found["x"], y=found["y"], width=found["width"], height=found["height"])
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} is not shown")
