"""What ``solve``, ``count`` and ``analyze`` share when given many puzzles at once.

Several files, a folder, or one file holding many puzzles (a tournament set, a
``.nonpack``) make a batch: every file is read first, a bad one reported at once while
the rest go on, as compilers and grep do; each puzzle is called by a name its messages
can use; progress shows on standard error, so standard output holds only results; a
summary closes it."""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from nonocp.answers import Result, Uniqueness
from nonocp.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_SOLVED, EXIT_UNSOLVED
from nonocp.cli.app import report
from nonocp.cli.output import Output, describe, progress_bar
from nonocp.errors import InputError, NonocpError, named_os_errors
from nonocp.formats import Reading, label, load_each, name_of, puzzle_files, select
from nonocp.pool import in_order
from nonocp.puzzle import Puzzle, too_large
from nonocp.words import counted

T = TypeVar("T")

Numbered = list[tuple[int, Reading]]
"""Puzzles to work on from one file, each with its place there (from 1), which names an
untitled one (``#3``) and pairs it with its solution in a solution file; one that could
not be read is its error."""

Batch = tuple[str, Numbered, int]
"""One file's name, the puzzles to work on from it, and how many it holds."""


class Entry(NamedTuple):
    """One puzzle of a batch: its file, its place and label there (``$17``, a title,
    ``#3``), and what its line starts with: its file where a reader needs it, its title or
    label once, and its size (``set.txt ($7) 25x25``)."""

    source: str
    position: int
    label: str
    heading: str
    puzzle: Puzzle


class Unreadable(NamedTuple):
    """A file, or one puzzle of a file whose others read, that could not be read: its
    error."""

    error: str
    one_puzzle: bool = False


class Work(NamedTuple):
    """The puzzles a command was given: what to call them together (the file, or ``N
    files``), the files when several were given, why each file or puzzle that could not
    be read could not, whether Ctrl-C cut the batch short after ``entries``, and the
    errors of the puzzles that read but are too large to solve (kept apart from those
    that could not be read: their files are good, and ``convert`` takes them)."""

    title: str
    entries: list[Entry]
    files: list[str] | None
    unreadable: list[Unreadable]
    interrupted: bool = False
    too_large: tuple[str, ...] = ()

    @property
    def left_out(self) -> bool:
        """Whether a file or a puzzle was left out, unreadable or too large to solve."""
        return bool(self.unreadable or self.too_large)

    @property
    def single(self) -> bool:
        """One puzzle of one file, and nothing left out: a command draws it instead of
        summing up a batch (whose JSON lists what it left out; standard error named each
        as it was met)."""
        return self.files is None and len(self.entries) == 1 and not self.left_out


def work_of(
    paths: list[Path],
    format: str | None,
    index: str | None,
    name: str | None,
    **one_file_options: object,
) -> Work:
    """The puzzles of the files and folders given, all of them, or the one ``--index`` or
    ``--name`` picks from a single file. Those two, and any ``one_file_options`` a
    command has, are refused once the folders are expanded to several files."""
    files, empty = _expanded(paths)
    if not files:
        raise empty[0]
    if len(files) == 1 and not empty:
        (file,) = files
        batch = _chosen(file, format, index, name)
        return Work(name_of(file), _entries([batch], several=False), None, _reported(batch))
    _refuse("takes one puzzle file, not several", index=index, name=name, **one_file_options)
    for error in empty:
        report(error)
    batches, unreadable = _readable(files, format)
    names = [name_of(file) for file in files]
    entries = _entries(batches, several=True)
    not_files = [Unreadable(str(error)) for error in empty]
    return Work(counted(len(files), "file"), entries, names, [*not_files, *unreadable])


def solvable(work: Work) -> Work:
    """The work but for its puzzles too large to solve, each reported at once as one that
    could not be read is, and the batch goes on; a puzzle given alone is an error."""
    kept: list[Entry] = []
    refused: list[str] = []
    for entry in work.entries:
        why = too_large(entry.puzzle.width, entry.puzzle.height)
        if why is None:
            kept.append(entry)
            continue
        if work.single:
            raise NonocpError(f"{entry.source}: {why}")
        error = f"{entry.source} ({entry.label}): {why}"
        report(NonocpError(error))
        refused.append(error)
    return work._replace(entries=kept, too_large=(*work.too_large, *refused))


def _chosen(file: Path, format: str | None, index: str | None, name: str | None) -> Batch:
    """A file's puzzles a command works on, each with its place there: all, or those
    ``--index`` or ``--name`` picks. One picked alone that cannot be read is an error."""
    readings = load_each(file, format)
    position = {id(reading): at for at, reading in enumerate(readings, start=1)}
    picked = select(readings, index, name, name_of(file))
    if len(picked) == 1 and isinstance(picked[0], InputError):
        raise picked[0]
    return name_of(file), [(position[id(p)], p) for p in picked], len(readings)


def _reported(batch: Batch) -> list[Unreadable]:
    """Report at once each puzzle of ``batch`` that could not be read; the rest go on."""
    _, numbered, _ = batch
    errors = [reading for _, reading in numbered if isinstance(reading, InputError)]
    for error in errors:
        report(error)
    return [Unreadable(str(error), one_puzzle=True) for error in errors]


def _expanded(paths: list[Path]) -> tuple[list[Path], list[NonocpError]]:
    """The files given, each folder replaced by the puzzle files under it, and an error
    for each folder without any (the rest of a batch goes on without it). A path that
    cannot be looked at (inside a folder one may not enter) stays, so that reading it
    reports why."""
    files, empty = [], []
    for path in paths:
        if not _is_folder(path):
            files.append(path)
        elif found := _listed(path):
            files.extend(found)
        else:
            empty.append(NonocpError(f"{name_of(path)}: no puzzle files in this folder"))
    return files, empty


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _listed(folder: Path) -> list[Path]:
    with named_os_errors(name_of(folder), "cannot be listed"):
        next(folder.iterdir(), None)  # the search below passes over a folder it cannot list
        return puzzle_files(folder)


def one_puzzle_only(work: Work, **options: object) -> None:
    """Refuse, naming it, an option that shows one puzzle in detail when a batch was given."""
    if not work.single:
        _refuse("shows one puzzle: pick one with --index N or --name, from one file", **options)


def _refuse(why: str, **options: object) -> None:
    """Name the first of ``options`` that was given, and why it cannot be here."""
    for option, value in options.items():
        if value not in (None, False):
            raise NonocpError(f"--{option} {why}")


def _readable(files: list[Path], format: str | None) -> tuple[list[Batch], list[Unreadable]]:
    """The puzzles of each file that reads, and the errors of the files and puzzles that
    do not: a batch goes on past them, reporting each at once and exiting with status 2."""
    batches: list[Batch] = []
    unreadable = []
    for file in files:
        try:
            readings = load_each(file, format)
        except NonocpError as error:
            report(error)
            unreadable.append(Unreadable(str(error)))
            continue
        batch = name_of(file), list(enumerate(readings, start=1)), len(readings)
        batches.append(batch)
        unreadable += _reported(batch)
    return batches, unreadable


def _entries(batches: list[Batch], several: bool) -> list[Entry]:
    """Every puzzle of ``batches``, labelled by its place in its file. A puzzle alone in its
    file is headed by the file (and its title); one of many by its label (the title, if it
    has one), after the file's name among ``several`` files or when picked alone."""
    found = []
    for source, numbered, held in batches:
        for position, puzzle in numbered:
            if isinstance(puzzle, InputError):
                continue
            labelled = label(puzzle, position)
            if held == 1:
                heading = describe(puzzle, source)
            elif several or len(numbered) == 1:
                heading = f"{source} ({labelled}) {puzzle.size}"
            else:
                heading = f"{labelled} {puzzle.size}"
            found.append(Entry(source, position, labelled, heading, puzzle))
    return found


def answered(
    out: Output,
    doing: str,
    work: Work,
    answer: Callable[[Puzzle], T],
    jobs: int,
    line: Callable[[Entry, T], str | None],
) -> tuple[Work, list[T]]:
    """``answer`` for each of a batch's puzzles, on ``jobs`` processes, gathered in order
    under a progress bar on standard error (shown only on a terminal and gone when the
    batch ends), and the work they answer: all of it, or after Ctrl-C the puzzles answered
    by then, so that hours of a batch are not lost with the rest (``print_batch`` then
    exits with status 130). Plain output prints each puzzle's ``line`` (None: nothing to
    say) as soon as it is answered: a long batch shows what it has found as it goes, and
    one killed has said it."""
    gathered: list[T] = []
    bar = progress_bar(
        *Progress.get_default_columns(),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),  # above the bar; but a file keeps its lines
    )
    answers = in_order(answer, [entry.puzzle for entry in work.entries], jobs)
    description = escape(f"{doing} {work.title}")  # a file's name, not rich markup
    try:
        with bar:
            progress = bar.track(answers, total=len(work.entries), description=description)
            for entry, found in zip(work.entries, progress, strict=False):
                gathered.append(found)
                if not out.as_json and (text := line(entry, found)) is not None:
                    out.line(text)
                    sys.stdout.flush()
    except KeyboardInterrupt:
        print(f"interrupted after {len(gathered)} of {len(work.entries)} puzzles", file=sys.stderr)
        return work._replace(entries=work.entries[: len(gathered)], interrupted=True), gathered
    return work, gathered


def exit_status(work: Work, ok: bool) -> int:
    """2 when a file or a puzzle could not be read or was too large to solve, else 0 when
    every puzzle was answered, else 1."""
    return EXIT_BAD_INPUT if work.left_out else EXIT_SOLVED if ok else EXIT_UNSOLVED


def print_batch(
    out: Output,
    work: Work,
    answers: list[T],
    document: Callable[[Entry, T], dict[str, Any]],
    tally: dict[str, Any],
) -> None:
    """Print a batch's answers: as JSON, the file or files given, a ``document`` for each
    puzzle and the ``tally``; otherwise the tally as ``_print_summary`` does (the lines
    of the puzzles were printed as they were answered). The JSON also holds the errors
    of the files and puzzles that could not be read, and of those too large to solve: a
    program reading it may never see standard error. A batch Ctrl-C cut short ends here,
    with status 130, its answers printed (none, if it came before the first)."""
    answered = list(zip(work.entries, answers, strict=True))
    if out.as_json:
        given = {"file": work.title} if work.files is None else {"files": work.files}
        documents = [
            {"puzzle": entry.label, **document(entry, answer)} for entry, answer in answered
        ]
        out.json(
            {
                **given,
                "unreadable": [unreadable.error for unreadable in work.unreadable],
                "too_large": list(work.too_large),
                "interrupted": work.interrupted,
                "puzzles": documents,
                "summary": tally,
            }
        )
    else:  # the puzzles' lines were printed as they were answered
        _print_summary(out, work.title, tally)
    if work.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


def verdicts(results: list[Result]) -> dict[str, int]:
    """How many of a batch's puzzles each verdict was proven for, and how many are unknown."""
    found = Counter(result.uniqueness for result in results)
    kinds = (Uniqueness.UNIQUE, Uniqueness.MULTIPLE, Uniqueness.NONE, Uniqueness.UNKNOWN)
    return {kind.value: found[kind] for kind in kinds}


def timing(seconds: list[float]) -> dict[str, float | None]:
    """What every batch's summary ends with: its puzzles' seconds in all, and the median."""
    median = statistics.median(seconds) if seconds else None  # none, if Ctrl-C came first
    return {"total_seconds": float(sum(seconds)), "median_seconds": median}


def _print_summary(out: Output, title: str, tally: dict[str, Any]) -> None:
    """A batch's totals: a one-row table on a terminal, one line in plain output."""
    shown = {heading.replace("_", " "): _cell(value) for heading, value in tally.items()}
    if out.plain:
        out.line(f"{title}: " + ", ".join(f"{k} {v}" for k, v in shown.items()))
        return
    table = Table(title=Text(title))  # a file's name, not rich markup
    for heading in shown:
        table.add_column(heading, justify="right")
    table.add_row(*shown.values())
    out.console.print(table)


def _cell(value: object) -> str:
    """A total as the summary shows it: seconds to the millisecond, a count, or ``-`` for
    the median of no puzzle."""
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)
