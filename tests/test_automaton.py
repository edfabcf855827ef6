from __future__ import annotations

import re
from itertools import product

import pytest

from nonocp.automaton import DFA, compile_clue
from nonocp.puzzle import Clue, runs

from bruteforce import lines_with_runs


def accepts(dfa: DFA, word: tuple[int, ...]) -> bool:
    """Whether ``dfa`` reads ``word`` to an accepting state (a missing transition: dead)."""
    step = {(s, a): t for s, a, t in dfa.transitions}
    state: int | None = dfa.start
    for symbol in word:
        state = step.get((state, symbol)) if state is not None else None
    return state in dfa.accepting


def regex(c: Clue) -> str:
    """The clue's language as a regular expression, the way the README explains the model."""
    if not c:
        return "0*"
    blocks = "0+".join(f"1{{{b}}}" for b in c)
    return f"0*{blocks}0*"


def clues_fitting(length: int) -> list[Clue]:
    """Every clue that fits a line of ``length`` cells: the runs of some line that long."""
    return sorted({runs(line) for line in product((0, 1), repeat=length)})


@pytest.mark.parametrize("length", range(1, 11))
def test_dfa_accepts_exactly_the_lines_whose_runs_equal_the_clue(length: int) -> None:
    words = list(product((0, 1), repeat=length))
    for c in clues_fitting(length):
        dfa = compile_clue(c)
        accepted = {w for w in words if accepts(dfa, w)}
        assert accepted == set(lines_with_runs(c, length)), c


@pytest.mark.parametrize("length", range(1, 9))
def test_regex_text_describes_the_same_language(length: int) -> None:
    words = ["".join(map(str, w)) for w in product((0, 1), repeat=length)]
    for c in clues_fitting(length):
        pattern = re.compile(regex(c))
        matched = {w for w in words if pattern.fullmatch(w)}
        assert matched == {"".join(map(str, w)) for w in lines_with_runs(c, length)}


def test_regex_reads_as_documented() -> None:
    assert regex((3, 2)) == "0*1{3}0+1{2}0*"
    assert regex(()) == "0*"


def test_dfa_is_minimal_and_deterministic() -> None:
    dfa = compile_clue((3, 2))
    assert dfa.states == 3 + 2 + 2
    pairs = [(s, a) for s, a, _ in dfa.transitions]
    assert len(pairs) == len(set(pairs))
    assert compile_clue(()).states == 1
