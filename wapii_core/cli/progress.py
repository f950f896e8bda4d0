"""Rich progress bars for the runner's long steps."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def progress_bars(enabled: bool = True) -> Iterator[Callable[[str, int], Callable[[int], None]]]:
    """Yield a ``progress(stage, total) -> advance(n)`` factory backed by one rich Progress display."""
    if not enabled:
        yield lambda stage, total: (lambda n=1: None)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description:<12}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=False) as bars:
        def factory(stage: str, total: int) -> Callable[[int], None]:
            task = bars.add_task(stage, total=total)
            return lambda n=1: bars.advance(task, n)

        yield factory
