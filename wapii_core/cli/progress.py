"""Rich progress bars for the runner's long steps: count, rate and time left for each stage.

rich is imported when the bars are shown, not with ``--quiet``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator


def _rate_column() -> Any:
    """A rich column of items per second (rich's estimate over the last minute), empty before there is one."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            if not speed:
                return Text("", style="progress.data.speed")
            return Text(f"{speed:.1f}/s" if speed < 100 else f"{speed:.0f}/s", style="progress.data.speed")

    return RateColumn()


@contextmanager
def progress_bars(enabled: bool = True) -> Iterator[Callable[[str, int], Callable[[int], None]]]:
    """Yield a ``progress(stage, total) -> advance(n)`` factory backed by one rich Progress display.

    Each stage shows done/total, items per second, elapsed time and an estimate of the time left.
    The display starts with the first stage and is cleared when the block raises, so a command
    that fails prints nothing but its one-line error.
    """
    if not enabled:
        yield lambda stage, total: (lambda n=1: None)
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    from wapii_core.base.text import visible

    bars = Progress(TextColumn("{task.description:<12}"), BarColumn(), MofNCompleteColumn(), _rate_column(),
                    TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=False, speed_estimate_period=60)

    def factory(stage: str, total: int) -> Callable[[int], None]:
        if not bars.live.is_started:
            bars.start()
        task = bars.add_task(visible(stage, markup=True), total=total)  # the description is Rich markup
        return lambda n=1: bars.advance(task, n)

    try:
        yield factory
    except BaseException:
        if bars.live.is_started:  # an error ends the command: its one line is all that is printed
            bars.live.transient = True
            bars.live.stop()  # not bars.stop(), which adds an empty line on a non-terminal
        raise
    if bars.live.is_started:
        bars.stop()
