"""Rich progress bars for the runner's long steps."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def progress_bars(enabled: bool = True) -> Iterator[Callable[[str, int], Callable[[int], None]]]:
    """Yield a ``progress(stage, total) -> advance(n)`` factory backed by one rich Progress display.

    The display starts with the first stage and is cleared when the block raises, so a command
    that fails prints nothing but its one-line error.
    """
    if not enabled:
        yield lambda stage, total: (lambda n=1: None)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bars = Progress(TextColumn("{task.description:<12}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=Console(stderr=True), transient=False)

    def factory(stage: str, total: int) -> Callable[[int], None]:
        if not bars.live.is_started:
            bars.start()
        task = bars.add_task(stage, total=total)
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
