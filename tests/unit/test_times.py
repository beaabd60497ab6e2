"""Canonical times: four-digit years, hashes of ordinary years unchanged, a bounded range."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import format_time, parse_time, seal
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair, check_time_range
from tutor_memory.domain.errors import ValidationError

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def test_a_year_below_1000_is_written_with_four_digits_and_reads_back() -> None:
    early = datetime(999, 7, 4, 1, 2, 3, 4, tzinfo=UTC)
    assert format_time(early) == "0999-07-04T01:02:03.000004Z"
    assert parse_time(format_time(early)) == early


def test_an_unpadded_year_written_before_still_reads() -> None:
    assert parse_time("999-07-04T01:02:03.000004Z") == datetime(999, 7, 4, 1, 2, 3, 4, tzinfo=UTC)


def test_an_ordinary_year_keeps_its_canonical_form_and_hash() -> None:
    assert format_time(NOW) == NOW.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    new = NewEpisode(Pair("s1", "biology"), Kind.QUESTION, "What is osmosis?", NOW)
    # Sealed before the change; any drift in the canonical form would change it.
    assert seal(new, None, version=1).hash == (
        "19d06aa66b4c8d97d8d1f762c9b767392ec889fdb1ff9c540f8331504e4d942f"
    )


@pytest.mark.parametrize(
    "at",
    [C.EARLIEST_AT - timedelta(microseconds=1), NOW + C.LATEST_AHEAD + timedelta(seconds=1)],
)
def test_a_client_time_outside_the_range_names_at(at: datetime) -> None:
    with pytest.raises(ValidationError) as refused:
        check_time_range("at", at, NOW)
    assert refused.value.field == "at" and "1970-01-01" in refused.value.problem


def test_a_client_time_inside_the_range_comes_back_in_utc() -> None:
    assert check_time_range("at", C.EARLIEST_AT, NOW) == C.EARLIEST_AT
    assert check_time_range("at", NOW + C.LATEST_AHEAD, NOW) == NOW + C.LATEST_AHEAD
