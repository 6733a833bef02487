"""The statistics screen: every name with finished games, and for the chosen one its figures and
the three charts of the command and the web (totals over perfect play and the medium and easy
players, totals game by game, mean points per box), drawn in the terminal with plotext."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from kismet_dice.rules import Box
from kismet_dice.session import narration
from kismet_dice.session.stat_charts import REFERENCE_TITLE, chart_title, own_name, reference_lines
from kismet_dice.session.statistics import NO_FINISHED_GAMES, PlayerStatistics, Statistics, table_lines
from kismet_dice.strategy import Computer
from kismet_dice.strategy.reference import PERFECT, Reference
from kismet_dice.strategy.solver import Progress
from kismet_dice.tui.screens.strategy import in_percents

BIN = 20
"""Points in one bar of the histogram, as on the SVG chart."""


class StatsScreen(ModalScreen[None]):
    """Names on the left; the chosen name's figures and charts on the right.

    ``reference`` makes the reference of perfect play and the others (seconds the first time, told
    to the progress it is given); it runs in a thread once the screen is up, which says how far it
    is, and the charts are drawn again when it is ready. It returns ``None`` where there is no
    strategy table: the charts then show the person alone.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f4", "close", "Close")]

    def __init__(self, found: Statistics, reference: Callable[[Progress], Reference | None]) -> None:
        super().__init__(classes="dialog-screen")
        self.found = found
        self.make_reference = reference
        self.reference: Reference | None = None
        self.chosen: PlayerStatistics | None = found.players[0] if found.players else None

    def compose(self) -> ComposeResult:
        # The words take the dialog's whole width and wrap (Static, not Label, which would be cut
        # at its edge): the figures' longest lines need more than the column beside the names
        # leaves on an 80-column terminal.
        with Vertical(classes="dialog", id="stats-dialog"):
            yield Label("Statistics", classes="dialog-title")
            if self.chosen is not None:
                yield Static("", id="stats-figures")
            else:
                yield Static(NO_FINISHED_GAMES, id="stats-none")
            playing = Static("", id="stats-reference")
            playing.display = False  # while the reference games are played, the first time
            yield playing
            if self.chosen is None:
                # What there is to aim at, once the reference is there (where the table is).
                aim = PlotextPlot(id="chart-totals")
                aim.display = False
                yield aim
                return
            with Horizontal(id="stats-body"):
                yield OptionList(*(player.name for player in self.found.players), id="stats-names")
                with TabbedContent(id="stats-charts"):
                    with TabPane("Totals", id="tab-totals"):
                        yield PlotextPlot(id="chart-totals")
                    with TabPane("Over time", id="tab-time"):
                        yield PlotextPlot(id="chart-time")
                    with TabPane("Per box", id="tab-boxes"):
                        yield PlotextPlot(id="chart-boxes")

    def on_mount(self) -> None:
        if self.chosen is not None:
            self.show(self.chosen)
        self.load_reference()

    @work(thread=True, exclusive=True)
    def load_reference(self) -> None:
        made = self.make_reference(
            in_percents(lambda percent: self.app.call_from_thread(self._playing, percent))
        )
        self.app.call_from_thread(self._referenced, made)

    def _playing(self, percent: int) -> None:
        playing = self.query_one("#stats-reference", Static)
        playing.update(f"{narration.PLAYING_REFERENCE} {percent}%")
        playing.display = True

    def _referenced(self, made: Reference | None) -> None:
        self.query_one("#stats-reference").display = False
        if made is None:
            return
        self.reference = made
        if self.chosen is not None:
            self.show(self.chosen)
        else:
            self.query_one("#chart-totals").display = True
            self.draw_totals(None)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.chosen = self.found.players[event.option_index]
        self.show(self.chosen)

    def show(self, player: PlayerStatistics) -> None:
        self.query_one("#stats-figures", Static).update("\n".join(table_lines(player)[:5]))
        self.draw_totals(player)
        self.draw_time(player)
        self.draw_boxes(player)

    def draw_totals(self, player: PlayerStatistics | None) -> None:
        """The person's totals over the references', or without a person the references' alone."""
        widget = self.query_one("#chart-totals", PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(REFERENCE_TITLE if player is None else chart_title("totals", player.name))
        if player is not None and player.totals:
            low = min(player.totals) // BIN * BIN
            bins: dict[int, int] = {}
            for total in player.totals:
                start = (total - low) // BIN * BIN + low
                bins[start] = bins.get(start, 0) + 1
            starts = sorted(bins)
            plt.bar(
                [start + BIN / 2 for start in starts],
                [bins[start] / player.games for start in starts],
                width=0.8 * BIN,
                label=own_name("totals", player.name),
            )
        if self.reference is not None:
            for name, probabilities in reference_lines(self.reference).items():
                shares: dict[int, float] = {}
                for total, probability in probabilities.items():
                    start = total // BIN * BIN
                    shares[start] = shares.get(start, 0.0) + probability
                starts = sorted(shares)
                plt.plot([s + BIN / 2 for s in starts], [shares[s] for s in starts], label=name)
        plt.xlabel("Total")
        plt.ylabel("Share of games")
        widget.refresh()

    def draw_time(self, player: PlayerStatistics) -> None:
        widget = self.query_one("#chart-time", PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(chart_title("time", player.name))
        games = list(range(1, len(player.totals) + 1))
        if player.totals:
            plt.plot(games, list(player.totals), marker="dot", label=own_name("time", player.name))
        if self.reference is not None and games:
            plt.hline(self.reference.perfect_mean)
            plt.text(f"{PERFECT}, mean {self.reference.perfect_mean:.1f}", 1, self.reference.perfect_mean)
        plt.xlabel("Game")
        plt.ylabel("Total")
        widget.refresh()

    def draw_boxes(self, player: PlayerStatistics) -> None:
        widget = self.query_one("#chart-boxes", PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(chart_title("boxes", player.name))
        labels = [box.label for box in Box]
        own = own_name("boxes", player.name)
        if player.box_mean:
            mine = [player.box_mean[box.name] for box in Box]
            if self.reference is not None:
                perfect = [self.reference.box_mean[box.name] for box in Box]
                # plotext takes ``labels`` (one per series); the wrapper's stub names it ``label``.
                plt.multiple_bar(  # type: ignore[call-arg]
                    labels, [mine, perfect], labels=[own, PERFECT], orientation="horizontal"
                )
            else:
                plt.bar(labels, mine, orientation="horizontal", label=own)
        plt.xlabel("Mean points")
        widget.refresh()

    def action_close(self) -> None:
        self.dismiss(None)


def stats_reference(computer: Computer | None, progress: Progress | None = None) -> Reference | None:
    """The reference of the charts when the strategy table is at hand (loaded or stored), else
    ``None``: the statistics screen never starts a solve of its own. ``progress`` hears of its games
    as they are played, the first time."""
    return (computer if computer is not None else Computer()).chart_reference(progress)
