"""Charts as SVG text: a histogram with reference lines, a line over time, bars with reference marks.

Pure and self-contained (no import of the game or of any interface), so every interface can draw
the same picture: the command writes it to a file, the web serves it. Every piece of text is
escaped, and colours are presentation attributes (``fill=``, ``stroke=``), never ``style=``, so a
page whose Content-Security-Policy forbids inline styles shows them as drawn. A page that draws the
SVG into itself may recolour it (a dark theme, say) with its own style sheet: the background is
``class="background"``, the grid and axes are the lines of their groups, and every element drawn in
a series' colour says which series it is (``data-series="main"`` for the person's own figures,
``"1"`` ... for the references in order).

>>> import xml.etree.ElementTree as ET
>>> svg = histogram([250, 262, 301], title="Ann <&> Bob", references={"perfect play": {300: 1.0}})
>>> root = ET.fromstring(svg)
>>> root.find("{http://www.w3.org/2000/svg}title").text
'Ann <&> Bob'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

WIDTH = 720
HEIGHT = 400
FONT = 'font-family="system-ui, sans-serif"'
INK = "#222222"
GRID = "#dddddd"
BACKGROUND = "#ffffff"
MAIN = "#3566b8"
"""The person's own figures."""
PALETTE = ("#c2410c", "#15803d", "#7e22ce", "#a16207", "#0e7490")
"""The references, in the order given."""
DASHES = ("", "6 4", "2 3", "8 3 2 3", "4 2")


def _series(colour: str) -> str:
    """The ``data-series`` attribute of an element drawn in ``colour``.

    >>> _series(MAIN), _series(PALETTE[1])
    (' data-series="main"', ' data-series="2"')
    """
    return f' data-series="{"main" if colour == MAIN else PALETTE.index(colour) + 1}"'


@dataclass(frozen=True)
class Box:
    """Where the plot goes inside the picture: left and top edges, width and height."""

    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``low`` to ``high``: about ``count`` of them, in steps of 1, 2 or 5
    times a power of ten.

    >>> ticks(0, 100)
    [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    >>> ticks(183, 402)
    [150.0, 200.0, 250.0, 300.0, 350.0, 400.0, 450.0]
    >>> ticks(0.0, 0.013)
    [0.0, 0.005, 0.01, 0.015]
    >>> ticks(5, 5)
    [4.0, 4.5, 5.0, 5.5, 6.0]
    """
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    first = math.floor(low / step)
    last = math.ceil(high / step)
    return [float(round(k * step, 10)) for k in range(first, last + 1)]


def label(value: float) -> str:
    """A tick value written short: whole numbers without a point, others with what they need.

    >>> label(300.0), label(0.005), label(2.5), label(-0.0)
    ('300', '0.005', '2.5', '0')
    """
    if value == int(value):
        return str(int(value))
    return f"{value:g}"


def percent(share: float) -> str:
    """A share from 0 to 1 as a tick label in percent.

    >>> percent(0.05), percent(0.125), percent(0.0)
    ('5%', '12.5%', '0%')
    """
    return f"{label(round(share * 100, 6))}%"


def _text(
    x: float, y: float, content: str, *, anchor: str = "middle", size: int = 12, extra: str = ""
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{INK}" {FONT}'
        f"{extra}>{escape(content)}</text>"
    )


def _open(title: str, description: str, width: int, height: int) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title chart-desc">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(description)}</desc>',
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="{BACKGROUND}"/>',
        _text(width / 2, 24, title, size=16, extra=' font-weight="bold"'),
    ]


def _legend(entries: Sequence[tuple[str, str, str, bool]], x: float, y: float) -> list[str]:
    """Legend rows of (name, colour, dash, filled square or line), from the top right corner."""
    parts = ['<g class="legend">']
    for row, (name, colour, dash, filled) in enumerate(entries):
        top = y + row * 18
        if filled:
            parts.append(
                f'<rect x="{x:.1f}" y="{top - 9:.1f}" width="14" height="10" '
                f'fill="{colour}"{_series(colour)}/>'
            )
        else:
            dashed = f' stroke-dasharray="{dash}"' if dash else ""
            parts.append(
                f'<line x1="{x:.1f}" y1="{top - 4:.1f}" x2="{x + 14:.1f}" y2="{top - 4:.1f}" '
                f'stroke="{colour}" stroke-width="2.5"{dashed}{_series(colour)}/>'
            )
        parts.append(_text(x + 20, top, name, anchor="start"))
    parts.append("</g>")
    return parts


def _y_axis(
    plot: Box, values: Sequence[float], scale: float, low: float, name: str, fmt: type | None = None
) -> list[str]:
    parts = ['<g class="y-axis">']
    for value in values:
        y = plot.bottom - (value - low) * scale
        parts.append(
            f'<line x1="{plot.left:.1f}" y1="{y:.1f}" x2="{plot.right:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
        )
        text = percent(value) if fmt is float else label(value)
        parts.append(_text(plot.left - 6, y + 4, text, anchor="end"))
    middle = plot.top + plot.height / 2
    parts.append(_text(16, middle, name, extra=f' transform="rotate(-90 16 {middle:.1f})"'))
    parts.append("</g>")
    return parts


def _x_axis(plot: Box, values: Sequence[float], place: float, low: float, name: str) -> list[str]:
    parts = [
        '<g class="x-axis">',
        f'<line x1="{plot.left:.1f}" y1="{plot.bottom:.1f}" x2="{plot.right:.1f}" y2="{plot.bottom:.1f}" '
        f'stroke="{INK}"/>',
    ]
    for value in values:
        x = plot.left + (value - low) * place
        parts.append(
            f'<line x1="{x:.1f}" y1="{plot.bottom:.1f}" x2="{x:.1f}" y2="{plot.bottom + 5:.1f}" '
            f'stroke="{INK}"/>'
        )
        parts.append(_text(x, plot.bottom + 18, label(value)))
    parts.append(_text(plot.left + plot.width / 2, plot.bottom + 36, name))
    parts.append("</g>")
    return parts


def _bin_shares(probabilities: Mapping[int, float], low: int, width: int, bins: int) -> list[float]:
    shares = [0.0] * bins
    for total, probability in probabilities.items():
        index = (total - low) // width
        if 0 <= index < bins:
            shares[index] += probability
    return shares


def histogram(
    values: Sequence[int],
    *,
    title: str,
    references: Mapping[str, Mapping[int, float]] | None = None,
    name: str = "games",
    bin_width: int = 20,
    x_name: str = "Total",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """The share of ``values`` in each bin of ``bin_width`` as bars, and each reference distribution
    (probabilities by total) as a line over the same bins, so they read on one scale.

    One ``<rect class="bar">`` per bin holding a value (``data-count`` says how many), one
    ``<polyline class="reference">`` per reference.

    >>> import xml.etree.ElementTree as ET
    >>> svg = histogram([100, 105, 150], title="T", references={"perfect": {120: 0.5, 160: 0.5}})
    >>> bars = [e for e in ET.fromstring(svg).iter() if e.get("class") == "bar"]
    >>> [(bar.get("data-from"), bar.get("data-count")) for bar in bars]
    [('100', '2'), ('140', '1')]
    """
    references = references or {}
    if bin_width < 1:
        raise ValueError(f"a bin is at least 1 point wide, not {bin_width}")
    # Only where a reference is worth a pixel: a far tail of tiny chances would squeeze the rest.
    seen = list(values) + [t for ref in references.values() for t, p in ref.items() if p >= 1e-4]
    if not seen:
        seen = [0]
    low = min(seen) // bin_width * bin_width
    high = max(seen) // bin_width * bin_width + bin_width
    bins = (high - low) // bin_width
    counts = [0] * bins
    for value in values:
        counts[(value - low) // bin_width] += 1
    shares = [count / len(values) for count in counts] if values else counts
    lines = {ref: _bin_shares(probs, low, bin_width, bins) for ref, probs in references.items()}
    top = max([0.01, *shares, *(s for line in lines.values() for s in line)])
    y_ticks = [t for t in ticks(0, top) if t >= 0]
    x_ticks = [t for t in ticks(low, high, 8) if low <= t <= high]
    plot = Box(64, 44, width - 64 - 24, height - 44 - 56)
    place = plot.width / (high - low)
    scale = plot.height / y_ticks[-1]
    # Read aloud in place of the picture: what the bars count (if any) and what each line is.
    description = f"Bins of {bin_width} points"
    if values:
        description = f"{len(values)} games in bins of {bin_width} points"
    named = list(references)
    if len(named) == 1:
        description += f"; the line is {named[0]}"
    elif named:
        description += f"; the lines are {', '.join(named[:-1])} and {named[-1]}"
    parts = _open(title, description, width, height)
    parts += _y_axis(plot, y_ticks, scale, 0, "Share of games", float)
    parts.append('<g class="bars">')
    for index, count in enumerate(counts):
        if not count:
            continue
        x = plot.left + index * bin_width * place
        h = shares[index] * scale
        start = low + index * bin_width
        parts.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{plot.bottom - h:.1f}" '
            f'width="{bin_width * place - 2:.1f}" '
            f'height="{h:.1f}" fill="{MAIN}" fill-opacity="0.8"{_series(MAIN)} '
            f'data-from="{start}" data-count="{count}">'
            f"<title>{start}-{start + bin_width - 1}: {count} game(s)</title></rect>"
        )
    parts.append("</g>")
    for number, (ref, line) in enumerate(lines.items()):
        colour, dash = PALETTE[number % len(PALETTE)], DASHES[number % len(DASHES)]
        points = " ".join(
            f"{plot.left + (i + 0.5) * bin_width * place:.1f},{plot.bottom - share * scale:.1f}"
            for i, share in enumerate(line)
        )
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline class="reference" data-name={quoteattr(ref)} points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"{dashed}{_series(colour)}/>'
        )
    parts += _x_axis(plot, x_ticks, place, low, x_name)
    # A chart of references alone (no games of one's own) has no legend entry for games.
    legend = [(name, MAIN, "", True)] * bool(values) + [
        (ref, PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)], False) for n, ref in enumerate(references)
    ]
    parts += _legend(legend, plot.right - 170, plot.top + 12)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def line_chart(
    values: Sequence[float],
    *,
    title: str,
    name: str = "games",
    references: Mapping[str, float] | None = None,
    x_name: str = "Game",
    y_name: str = "Total",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """``values`` in order (game 1, 2, ...) as points joined by a line, each reference value as a
    horizontal line across. One ``<circle class="point">`` per value.

    >>> import xml.etree.ElementTree as ET
    >>> svg = line_chart([200, 250, 240], title="T", references={"perfect play": 315.2})
    >>> [e.get("data-value") for e in ET.fromstring(svg).iter() if e.get("class") == "point"]
    ['200', '250', '240']
    """
    references = references or {}
    seen = [*values, *references.values()] or [0.0]
    y_ticks = ticks(min(seen), max(seen))
    low, high = y_ticks[0], y_ticks[-1]
    count = max(1, len(values))
    x_ticks = [t for t in ticks(1, count, 8) if 1 <= t <= count and t == int(t)] or [1.0]
    plot = Box(64, 44, width - 64 - 24, height - 44 - 56)
    place = plot.width / max(1, count - 1) if count > 1 else 0.0
    scale = plot.height / (high - low)

    def x_of(index: int) -> float:
        return plot.left + (index * place if count > 1 else plot.width / 2)

    def y_of(value: float) -> float:
        return plot.bottom - (value - low) * scale

    description = f"{len(values)} games in the order they were played" + "".join(
        f"; {ref}: {value:.1f}" for ref, value in references.items()
    )
    parts = _open(title, description, width, height)
    parts += _y_axis(plot, y_ticks, scale, low, y_name)
    for number, (ref, value) in enumerate(references.items()):
        colour, dash = PALETTE[number % len(PALETTE)], DASHES[(number + 1) % len(DASHES)]
        parts.append(
            f'<line class="reference" data-name={quoteattr(ref)} x1="{plot.left:.1f}" y1="{y_of(value):.1f}" '
            f'x2="{plot.right:.1f}" y2="{y_of(value):.1f}" stroke="{colour}" stroke-width="2" '
            f'stroke-dasharray="{dash}"{_series(colour)}/>'
        )
    if len(values) > 1:
        points = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline class="line" points="{points}" fill="none" stroke="{MAIN}" '
            f'stroke-width="2"{_series(MAIN)}/>'
        )
    parts.append('<g class="points">')
    for index, value in enumerate(values):
        parts.append(
            f'<circle class="point" cx="{x_of(index):.1f}" cy="{y_of(value):.1f}" r="3.5" '
            f'fill="{MAIN}"{_series(MAIN)} '
            f'data-value="{label(value)}"><title>Game {index + 1}: {escape(label(value))}</title></circle>'
        )
    parts.append("</g>")
    axis_place = place if count > 1 else 0.0
    parts += _x_axis(plot, x_ticks if count > 1 else [], axis_place, 1, x_name)
    legend = [(name, MAIN, "", True)] + [
        (f"{ref} ({value:.1f})", PALETTE[n % len(PALETTE)], DASHES[(n + 1) % len(DASHES)], False)
        for n, (ref, value) in enumerate(references.items())
    ]
    parts += _legend(legend, plot.right - 200, plot.top + 12)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def lines_chart(
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    x_name: str,
    y_name: str,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """Shares (0 to 1) of several series over the same steps (0, 1, 2 ...), a line each in the
    references' colours and dashes (told apart without colour too), from 0% to 100%.

    >>> import xml.etree.ElementTree as ET
    >>> svg = lines_chart({"Ann": [0.5, 0.7, 1.0], "Bob": [0.5, 0.3, 0.0]}, title="T", x_name="x", y_name="y")
    >>> [e.get("data-name") for e in ET.fromstring(svg).iter() if e.get("class") == "line"]
    ['Ann', 'Bob']
    """
    steps = max((len(values) for values in series.values()), default=1)
    y_ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    plot = Box(64, 44, width - 64 - 24, height - 44 - 56)
    place = plot.width / max(1, steps - 1)
    scale = plot.height
    x_ticks = [t for t in ticks(0, max(steps - 1, 1), 8) if 0 <= t <= steps - 1 and t == int(t)] or [0.0]
    description = "; ".join(
        f"{name}: {percent(values[0])} at the start, {percent(values[-1])} at the end"
        for name, values in series.items()
        if values
    )
    parts = _open(title, description, width, height)
    parts += _y_axis(plot, y_ticks, scale, 0.0, y_name, float)
    legend = []
    for number, (name, values) in enumerate(series.items()):
        colour, dash = PALETTE[number % len(PALETTE)], DASHES[number % len(DASHES)]
        points = " ".join(
            f"{plot.left + i * place:.1f},{plot.bottom - v * scale:.1f}" for i, v in enumerate(values)
        )
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline class="line" data-name={quoteattr(name)} points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"{dashed}{_series(colour)}/>'
        )
        legend.append((name, colour, dash, False))
    parts += _x_axis(plot, x_ticks, place, 0, x_name)
    parts += _legend(legend, plot.right - 160, plot.top + 12)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def bar_chart(
    values: Mapping[str, float],
    *,
    title: str,
    name: str = "mean",
    reference: Mapping[str, float] | None = None,
    reference_name: str = "perfect play",
    x_name: str = "Mean points",
    width: int = WIDTH,
) -> str:
    """One horizontal bar per label (in the order given), with the reference value of that label
    as a mark across it. One ``<rect class="bar">`` and at most one ``<line class="reference">`` per label.

    >>> import xml.etree.ElementTree as ET
    >>> svg = bar_chart({"Ones": 2.5, "Kismet": 10.0}, title="T", reference={"Ones": 2.1})
    >>> root = ET.fromstring(svg)
    >>> [e.get("data-label") for e in root.iter() if e.get("class") in ("bar", "reference")]
    ['Ones', 'Ones', 'Kismet']
    """
    reference = reference or {}
    row = 22
    plot = Box(190, 60, width - 190 - 24, row * max(1, len(values)))
    height = int(plot.bottom + 48)
    seen = [0.0, *values.values(), *(reference[k] for k in values if k in reference)]
    x_ticks = [t for t in ticks(0, max(seen), 6) if t >= 0]
    place = plot.width / x_ticks[-1]
    parts = _open(
        title, f"mean points in each of {len(values)} boxes, with the mark of {reference_name}", width, height
    )
    parts.append('<g class="x-grid">')
    for value in x_ticks:
        x = plot.left + value * place
        parts.append(
            f'<line x1="{x:.1f}" y1="{plot.top:.1f}" x2="{x:.1f}" y2="{plot.bottom:.1f}" stroke="{GRID}"/>'
        )
    parts.append("</g>")
    colour = PALETTE[0]
    for index, (key, value) in enumerate(values.items()):
        y = plot.top + index * row
        parts.append(_text(plot.left - 8, y + row / 2 + 4, key, anchor="end"))
        parts.append(
            f'<rect class="bar" data-label={quoteattr(key)} x="{plot.left:.1f}" y="{y + 3:.1f}" '
            f'width="{value * place:.1f}" height="{row - 6}" fill="{MAIN}" fill-opacity="0.8"{_series(MAIN)}>'
            f"<title>{escape(key)}: {value:.1f}</title></rect>"
        )
        if key in reference:
            x = plot.left + reference[key] * place
            parts.append(
                f'<line class="reference" data-label={quoteattr(key)} x1="{x:.1f}" y1="{y + 1:.1f}" '
                f'x2="{x:.1f}" y2="{y + row - 1:.1f}" stroke="{colour}" stroke-width="3"{_series(colour)}>'
                f"<title>{escape(reference_name)}, {escape(key)}: {reference[key]:.1f}</title></line>"
            )
    parts += _x_axis(plot, x_ticks, place, 0, x_name)
    legend = [(name, MAIN, "", True)] + ([(reference_name, colour, "", False)] if reference else [])
    parts += _legend(legend, plot.right - 170, 44)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
