"""``nonocp magnitude``: grids with given run counts and the fewest or most filled cells."""

from __future__ import annotations

import io
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from nonocp.cli import EXIT_ALL_OPTIMAL, EXIT_INTERRUPTED, EXIT_NOT_ALL_OPTIMAL
from nonocp.cli.app import app, time_limit_option
from nonocp.cli.output import progress_bar
from nonocp.errors import named_os_errors
from nonocp.magnitude.batch import Summary, results, resume
from nonocp.magnitude.bounds import Sense
from nonocp.magnitude.files import Instance, Style, answer_line, read_instances
from nonocp.pool import cores

InstanceFile = Annotated[
    Path,
    typer.Argument(
        metavar="FILE",
        help="Instances: base64 16x16 grids, one per line, or lines of row run counts each "
        "followed by a line of column run counts (- reads standard input).",
        show_default=False,
        readable=False,  # reading reports it in one line
    ),
]
Minimize = Annotated[
    bool, typer.Option("--minimize/--maximize", help="Fewest (default) or most filled cells.")
]
Out = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write the answers to this file instead of standard output; if it exists, "
        "resume the run it holds (a file that holds anything else is refused and left as "
        "it is). The summary then goes to standard output.",
    ),
]
Jobs = Annotated[
    int | None, typer.Option("--jobs", min=1, help="Worker processes (default: all cores).")
]
InstanceTimeLimit = Annotated[
    float | None,
    time_limit_option(
        "Seconds per instance, construction included; one not proven optimal by then is "
        "'unproven' (or 'unknown', with no grid)."
    ),
]
InputStyle = Annotated[
    Style | None, typer.Option("--format", help="Read the file in this style (default: detect).")
]
Plain = Annotated[
    bool,
    typer.Option(
        "--plain", help="The summary as one line of ASCII; automatic when not a terminal."
    ),
]
Json = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print the summary as JSON. Without --out, standard output is then one JSON "
        "document: the summary, with the answer lines as a list under 'answers'.",
    ),
]


class RateColumn(ProgressColumn):
    """Instances per second, which rich's own columns only show for bytes."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f}/s", style="progress.data.speed")


@app.command()
def magnitude(
    file: InstanceFile,
    minimize: Minimize = True,
    out: Out = None,
    jobs: Jobs = None,
    time_limit: InstanceTimeLimit = None,
    format: InputStyle = None,
    as_json: Json = False,
    plain: Plain = False,
) -> None:
    """Grids with given run counts per row and column, and the fewest or most filled cells.

    Each answer is proven optimal or said not to be, one line per instance, in the input's style:
    the grid in base64, or '<filled> <status> <rows of 0 and 1>'.
    Exit status: 0 if every answer is proven optimal, 1 if not, 2 for bad input.
    """
    started = time.perf_counter()
    style, instances = read_instances(str(file), format)
    sense = Sense.MIN if minimize else Sense.MAX
    summary = Summary(sense)
    done = resume(out, instances, style, sense) if out else []
    for filled in done:
        summary.add_resumed(filled)
    report = Console(stderr=out is None and not as_json, highlight=False)
    held = io.StringIO() if as_json and out is None else None
    writing = named_os_errors(out, "cannot be written") if out else nullcontext()
    with writing, _answers_to(out, held) as answers:  # a full disk is one line, not a traceback
        try:
            _answer(instances[len(done) :], style, sense, jobs, time_limit, answers, summary)
        except KeyboardInterrupt:
            where = f"; run it again with --out {out} to resume" if out else ""
            print(f"interrupted after {summary.instances} instances{where}", file=sys.stderr)
            raise typer.Exit(EXIT_INTERRUPTED) from None
    seconds = time.perf_counter() - started
    if as_json:
        report.print_json(data=_document(summary, seconds, held))
    elif plain or not report.is_terminal:
        print(_line(summary, seconds), file=report.file)
    else:
        report.print(_table(summary, seconds))
    raise typer.Exit(
        EXIT_ALL_OPTIMAL if summary.optimal == summary.instances else EXIT_NOT_ALL_OPTIMAL
    )


def _answers_to(out: Path | None, held: io.StringIO | None) -> AbstractContextManager[IO[str]]:
    """Where the answer lines go: appended to ``--out`` (after those resumed), held for the
    JSON document, or to standard output."""
    if out is None:
        return nullcontext(sys.stdout if held is None else held)
    return out.open("a")  # its errors are named by the caller's, as writing's are


def _document(summary: Summary, seconds: float, held: io.StringIO | None) -> dict[str, object]:
    """The JSON summary, and the answers too when standard output holds nothing else."""
    counts: dict[str, object] = {**summary.as_dict(seconds)}
    return counts if held is None else counts | {"answers": held.getvalue().splitlines()}


def _answer(
    instances: list[Instance],
    style: Style,
    sense: Sense,
    jobs: int | None,
    time_limit: float | None,
    answers: IO[str],
    summary: Summary,
) -> None:
    """Solve, check and write each instance in order, under a progress bar on stderr (on a
    terminal only, as a batch's)."""
    columns = (
        TextColumn(f"{sense.value}imising"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    workers = jobs or cores()
    with progress_bar(*columns) as progress:
        task = progress.add_task("", total=summary.instances + len(instances))
        progress.update(task, completed=summary.instances)
        for result in results(instances, sense, workers, time_limit):
            answers.write(answer_line(result, style) + "\n")
            summary.add(result)
            progress.advance(task)


def _summary(summary: Summary, seconds: float) -> list[tuple[str, str | int | float, bool]]:
    """The summary's entries: name, value, and whether it reports a failure (drawn red,
    and shown only when there is one)."""
    counts = summary.as_dict(seconds)
    shown = ("instances", "filled", "optimal", "by_construction", "by_solver", "resumed")
    entries = [(key.replace("_", " "), counts[key], False) for key in shown]
    failures = ("unproven", "infeasible", "unknown")
    entries += [(key, counts[key], True) for key in failures if counts[key]]
    return [*entries, ("wall time", seconds, False)]


def _shown(value: str | int | float, grouped: bool) -> str:
    """A count (in thousands where ``grouped``: a table's cell, not a comma-separated
    line's) or the seconds."""
    if isinstance(value, float):
        return f"{value:.1f} s"
    return f"{value:,}" if grouped else str(value)


def _title(summary: Summary) -> str:
    return f"magnitude, {summary.sense.value}imised"


def _table(summary: Summary, seconds: float) -> Table:
    table = Table(title=_title(summary), show_header=False)
    for name, value, failing in _summary(summary, seconds):
        table.add_row(name, _shown(value, grouped=True), style="bold red" if failing else None)
    return table


def _line(summary: Summary, seconds: float) -> str:
    """The summary in plain output: one line, as a batch's."""
    summed = _summary(summary, seconds)
    entries = ", ".join(f"{name} {_shown(value, grouped=False)}" for name, value, _ in summed)
    return f"{_title(summary)}: {entries}"
