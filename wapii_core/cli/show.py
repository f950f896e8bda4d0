"""``wapii show``: one sample of a run directory on the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from wapii_core.store.record import RunRecord


def show_command(
    run_dir: Path = typer.Argument(..., help="A run directory written by `wapii run`."),
    sample: str = typer.Argument(..., help="The sample, as <api>/<index> (e.g. slack/12)."),
    draw: int = typer.Option(0, "--draw", min=0, help="Which draw of the sample (from 0; runs with -n > 1)."),
    prompt: bool = typer.Option(False, "--prompt", help="The whole prompt (default: folded to its first "
                                                        "and last lines)."),
) -> None:
    """One sample: task, prompt, program with the judged call marked, expected vs captured request, verdicts
    with their reasons."""
    from wapii_core.report.sample_story import SampleStory, print_story
    from wapii_core.store.record import load_run, sample_lines

    record = load_run(run_dir)
    generation, result = sample_lines(run_dir, sample, draw)
    story = SampleStory(str(run_dir), record, sample, draw, _task(record, sample), generation, result)
    print_story(story, whole_prompt=prompt)


def _task(record: "RunRecord", sample: str) -> str | None:
    """The sample's task from the run's dataset, or None when the dataset cannot be read any more."""
    from wapii_core.base.errors import WapiiError
    from wapii_core.run.plan import config_of, load_dataset

    config = config_of(record)
    try:
        dataset = load_dataset(config.dataset, config.data_dir, config.dataset_dir)
    except (WapiiError, OSError):
        return None
    return next((s.task for s in dataset.samples if s.id == sample), None)
