"""A long message costs the message parsers work in proportion to its length, never in
proportion to its square: a hostile or careless client may send 20,000 characters of one word
repeated, on the turn's path (the question's time window) or the write path (teaching).

Work is counted, not timed: the lines of Python each parser's module runs (``sys.settrace``
line events, generator expressions included), a figure that is the same on every machine.
Doubling the message must not much more than double it (a quadratic parser quadruples it:
"kal" repeated 4,500 times took 6 s CPU, a remember note of 6,000 object markers 1.5 s, one
of 2,200 "we call" 2 s).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType
from typing import Any

import pytest

from tutor_memory.domain import teaching, timewords
from tutor_memory.domain.teaching import detect_teaching
from tutor_memory.domain.timewords import find_window

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


def work(module_file: str, call: Callable[[], object]) -> int:
    """How many lines of ``module_file`` ``call`` runs."""
    count = 0

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != module_file:
            return None  # no line events for other modules' frames
        if event == "line":
            count += 1
        return trace

    call()  # warm the module's caches first: they are read once a process
    sys.settrace(trace)
    try:
        call()
    finally:
        sys.settrace(None)
    return count


def grows_linearly(module_file: str, make: Callable[[int], Callable[[], object]]) -> bool:
    small, large = work(module_file, make(300)), work(module_file, make(600))
    return large <= 2.5 * small


@pytest.mark.parametrize("word", ["kal", "کل", "yesterday", "pichle hafte"])
def test_a_time_question_of_one_word_repeated_costs_work_in_its_length(word: str) -> None:
    assert grows_linearly(
        timewords.__file__, lambda n: lambda: find_window(f"{word} " * n, NOW, UTC)
    )


REPEATED: dict[str, Callable[[int], str]] = {
    "a note whose markers name nothing": lambda n: "yaad rakho ke " + "ko " * n,
    "the same in the script": lambda n: "یاد رکھو کہ " + "کو " * n,
    "markers with nothing said before the verb": lambda n: "osmosis " + "ko " * n + "samjho",
    "a naming phrase again and again": lambda n: "remember that " + "we call " * n,
}


@pytest.mark.parametrize("shape", REPEATED)
def test_a_teaching_message_of_one_phrase_repeated_costs_work_in_its_length(shape: str) -> None:
    message = REPEATED[shape]
    assert grows_linearly(teaching.__file__, lambda n: lambda: detect_teaching(message(n)))
