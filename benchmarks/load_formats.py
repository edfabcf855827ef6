"""How long loading takes: each shared puzzle set, and each 1000-puzzle TAAI file on its own.

    python benchmarks/load_formats.py [--runs 7] [--shared ../shared]

Loading means what ``nonocp solve`` does before solving: read the file, detect its
format, parse it and validate every puzzle. Each set is loaded ``--runs`` times and the
median is reported (the machine is shared, so single timings are noise). The goal for
a 1000-puzzle tournament file is under half a second.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from nonocp.errors import NonocpError
from nonocp.formats import load_all, puzzle_files

REPO = Path(__file__).resolve().parents[1]
TAAI_GOAL = 0.5


def sets(shared: Path) -> dict[str, list[Path]]:
    """The benchmarked sets: one per folder, and each TAAI file (puzzles, solutions) alone."""
    puzzles = shared / "puzzles"
    found = {
        folder.name: puzzle_files(folder)
        for folder in sorted(puzzles.iterdir())
        if folder.is_dir() and folder.name != "taai"
    }
    taai = sorted((puzzles / "taai").glob("*.txt"))
    for path in sorted(taai, key=lambda p: (p.name.split(".")[0], "solution" in p.name)):
        found[path.name.removesuffix(".txt").replace(".solution", " solutions")] = [path]
    return found


def load_set(files: list[Path]) -> tuple[int, int]:
    """Load every file once: how many puzzles were read, how many files were refused."""
    puzzles = refused = 0
    for path in files:
        try:
            puzzles += len(load_all(path))
        except NonocpError:
            refused += 1
    return puzzles, refused


def timed(files: list[Path], runs: int) -> tuple[list[float], int, int]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        puzzles, refused = load_set(files)
        times.append(time.perf_counter() - started)
    return times, puzzles, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="loads per set (median reported)")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    args = parser.parse_args()
    console = Console(width=max(Console().width, 90))
    if not (args.shared / "puzzles").is_dir():
        console.print(f"{args.shared / 'puzzles'} is not present: nothing to measure")
        return
    table = Table(title=f"Loading the shared puzzle sets (median of {args.runs} runs)")
    for column in ("set", "files", "puzzles", "refused", "median s", "min s", "ms/puzzle"):
        table.add_column(column, justify="left" if column == "set" else "right", no_wrap=True)
    for name, files in sets(args.shared).items():
        times, puzzles, refused = timed(files, args.runs)
        median = statistics.median(times)
        over = puzzles == 1000 and "solutions" not in name and median >= TAAI_GOAL
        table.add_row(
            name,
            str(len(files)),
            str(puzzles),
            str(refused),
            f"[red]{median:.3f}[/red]" if over else f"{median:.3f}",
            f"{min(times):.3f}",
            f"{1000 * median / max(puzzles, 1):.2f}",
        )
    console.print(table)
    console.print(f"goal: each 1000-puzzle TAAI file loads in under {TAAI_GOAL} s")


if __name__ == "__main__":
    main()
