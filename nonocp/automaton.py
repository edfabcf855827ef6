"""Clues as finite automata: clue ``3,2`` is the regular language ``0*1{3}0+1{2}0*``.

The DFA reads one line cell by cell (0 empty, 1 filled). State ``i`` means "the first
``i`` symbols of the clue's pattern ``1^b1 0 1^b2 0 ... 1^bk`` have been read"; states
that follow a gap (or come first) loop on 0, which gives the ``0*``/``0+`` of the
regular expression. Missing transitions lead to an implicit dead state, so the DFA is
minimal and has ``sum(clue) + len(clue)`` states (one for an empty clue).
"""

from __future__ import annotations

from dataclasses import dataclass

from nonocp.puzzle import Clue

Transition = tuple[int, int, int]
"""``(state, symbol, next_state)``, the triple CP-SAT's ``add_automaton`` takes."""


@dataclass(frozen=True)
class DFA:
    states: int
    start: int
    accepting: frozenset[int]
    transitions: tuple[Transition, ...]


def pattern(c: Clue) -> tuple[int, ...]:
    """The symbols a line must read, in order: each block's 1s, one 0 between blocks."""
    symbols: list[int] = []
    for index, block in enumerate(c):
        if index:
            symbols.append(0)
        symbols.extend([1] * block)
    return tuple(symbols)


def compile_clue(c: Clue) -> DFA:
    """The minimal DFA accepting exactly the lines whose runs are ``c``."""
    symbols = pattern(c)
    transitions: list[Transition] = []
    for state in range(len(symbols) + 1):
        may_idle = state == 0 or symbols[state - 1] == 0 or state == len(symbols)
        if may_idle:
            transitions.append((state, 0, state))
        if state < len(symbols):
            transitions.append((state, symbols[state], state + 1))
    final = len(symbols)
    return DFA(len(symbols) + 1, 0, frozenset({final}), tuple(transitions))
