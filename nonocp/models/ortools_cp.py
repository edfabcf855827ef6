"""OR-tools' ``cp_model``, imported in this one place so that every engine building a
CP-SAT model gets it the same way: a Ctrl-C while it loads stays a Ctrl-C
(``clock.ctrl_c_unwrapped``), whichever engine loads it first."""

from nonocp.clock import ctrl_c_unwrapped

with ctrl_c_unwrapped():
    from ortools.sat.python import cp_model as cp_model
