"""The memory block: what the tutor is told on every turn, in order, within a budget (SPEC §7).

``build_block`` is pure: the same recall, beliefs, map, notes, budget and ``now`` give the same
text byte for byte. It never reads a clock; dates come from the episodes, the year from ``now``.

**Layout.** The header, then (record questions only) a line saying the student asks about their
own record, then (a named time with nothing in it) a line saying there is no record of that time
— first, because a model reads the first authoritative statement about a record and stops —
then the sections, then HOW TO USE THIS and the footer. An ordinary question shows the SUBJECT
MAP first, then beliefs, then earlier work; a record question shows beliefs, earlier work, and
the map last. Nothing is filtered by kind: the conversation *is* the record.

**Earlier work** is shown oldest first (first time, then sequence), one line per recalled item::

    - 12 Jul · you were asked: <summary>           (the student's message, when it asks)
    - 12 Jul · the student said: <summary>         (the student's message, when it tells)
    - 12 Jul · you answered: <summary>
    - 3 Sep · check on cytoplasm: right           (topic and verdict of the CheckEvidence)
    - 5 Sep · check on osmosis: wrong; you noted: <the evaluation of a miss>
    - 4 Sep · quiz: 7/10 on osmosis, diffusion    (score/maximum, then the topics if any)
    - 18 Sep · the student taught you: <the taught note>
    - 20 Sep · a file arrived: <file name>
    - 21 Sep · summary of the day: <summary>
    - 22 Sep · the teacher corrected an earlier record: check on osmosis: right, not wrong (why)

A missed check shows what the tutor wrote of the miss (``episodes.missed_note``): "what did I
get wrong?" asks what, not only where; a passed check's evaluation adds nothing to its verdict,
and a corrected check's was written for the verdict the correction changed.

An episode a later correction changed is shown as corrected, ending " (corrected on 22 Sep)"
(``domain.corrections``: the turn reads the pair's corrections only when its head counts one).
Where the correction that made it so is recalled too, its line is not shown beside it — it
would say the corrected text a second time — and its reason joins the note instead:
" (corrected on 22 Sep: a typo)" (``without_shown_corrections``). A correction whose episode is
not shown keeps its own line: it is then the only place the fix is told.

A day's summary (a consolidation) stands for its day only where none of the day's own
episodes was recalled: never both in one block, the budget is not spent twice on one day.

**Evidence, not whole episodes.** A student's message or a tutor's answer shows its summary
(the text's first line, at most ``MAX_SUMMARY_CHARS``), unless it is *long* — more than
``BLOCK_EXCERPT_SENTENCES`` sentences, or more than ``BLOCK_EXCERPT_CHARS`` characters — and
the question has analysed terms (``RecallResult.terms``): then it shows the sentence or two of
its text holding the most of those terms, in their original order, " … " marking what was cut
(``domain.excerpt``: the sentence rule for the five languages, the cap, the ellipses). A long
text with no sentence holding a term (found by meaning or by concept alone) shows its opening
sentence(s) within the same cap, or the summary written for it if it has one (a summary its
text does not hold), cut to the cap. Checks, quizzes, taught notes, files and day summaries
are short structured lines and stay as they are. ``work_line`` without ``terms`` (the bench's
pricing) gives every line exactly as before.

**Near-identical lines are one line.** Two shown lines of the same kind that differ only by
case, punctuation, spacing or (a message, an answer) a leading speaker's name ("Maya: hi
Sam!" and "hi Sam") are merged before the budget is spent: the better-scored item's line
stays, standing for both items' episodes, with the span of their dates and " (and N more
times like it)" counting them, as recall's own collapse of identical episodes does. A
student's message and a tutor's answer are never one line.

The year is added ("12 Jul 2025") only when it is not ``now``'s year, in the student's time
zone ``tz``. A collapsed item shows the span it covers ("12 Jul – 18 Sep") and ends with
" (and N more times like it)" ("time" for one); an episode whose cited file changed ends with
" [note: the file this cited has since been replaced]" (or "removed": SPEC §9 says which).
A question that matched nothing says so before the lines.

**The budget** (tokens by ``count``) is never exceeded. In order:

1. The fixed lines (header, record line, empty-time line, HOW TO USE THIS, footer) always stay;
   if even they do not fit, the block is empty and ``empty_reason`` says why. They say only
   what the block shows: HOW TO USE THIS explains the map only where a map is given, and with
   no belief line the beliefs' title goes without its legend (tokens that explain an absent
   section are taken from the earlier work).
2. Beliefs are paid next, most confident first (about twenty tokens each, each standing for
   many checks); whatever does not fit is counted in a "… and N more beliefs" line.
3. What is left is shared by the map and the earlier work: the map is first promised what it
   needs up to ``BLOCK_MAP_SHARE`` of it (less for a record question, where the record is the
   answer); the earlier work spends the rest (its cut order below; the survivors are still
   printed oldest first, with a "… and N more" line); the map then gets whatever the earlier
   work left over. The map section arrives already fitted by its renderer; here only whole
   lines are cut from its end (the concepts furthest from the question).
4. ABOUT THE STUDENT (the student's profile, current statements only, each with who said it
   and when) is shown right under the header. It **yields to the question's evidence**: it is
   fitted after the beliefs and the earlier work, from what they leave (before the map gets
   its leftover); when it cannot be shown whole, its lines are cut from the end ("… and N more
   about the student") — the profile lists accommodations and the language of instruction
   first, so they are the last to go. For a record question ("what do you know about me?") it
   is the answer: fitted first, whole if it fits.
5. The real text is counted at the end; should a counter not add up line by line, items are
   given back in the same order (earlier work, the profile, map lines, beliefs) until it fits.

**What the earlier work cuts.** Every item the budget can hold is kept: no count of lines is
fixed anywhere here (recall's ``RECALL_LIMIT`` bounds what it hands over, and is sized so that
the budget cuts first), so the number of lines follows the budget and the lines' lengths. When
the budget cannot hold every item, the items are taken in the order below, each while its line
fits what the lines taken before it left (room kept for the "… and N more" line): a line too
long for the rest is passed over and a shorter one after it still fills the room, so the first
line that does not fit does not end the section (``fill_order``). The order:

* a question's evidence (``Mode.RELEVANT``): Maximal Marginal Relevance (Carbonell &
  Goldstein 1998) over sessions, so evidence told in several sessions is not crowded out by
  one session's many lines. Greedily, the next item kept is the one with the highest score
  less ``BLOCK_SESSION_PENALTY`` if an item of its session is already kept; a session is the
  calendar day of the item's shown episode in the student's time zone ``tz`` (a tutoring
  session rarely crosses midnight, and nothing else in the log marks one). Ties go to the
  better-scored (then the newer, then the higher sequence). See ``diverse_order``;
* the recent past (no question, or nothing matched): by recency alone, the lowest-scored cut
  first — the latest session is what it is for.

Each section is fitted by a running sum of its lines' prices (``_fit``).

**What the block reports.** ``memory_ids``: every episode the shown earlier-work lines stand
for, collapsed repeats included, because each of them is in the prompt (SPEC §7 checks the
July memories by these ids). One representative id per shown line comes first, in the order
shown, then the other ids the collapsed lines stand for — so a caller that must cap the list
keeps one id per line; a line that near-identical items were merged into stands for all of
their episodes. Beliefs' evidence ids are not included: a belief is a summary, not a recalled
episode. ``belief_ids`` and ``map_concepts`` are those shown, in the order shown.
``dropped_items`` counts the earlier-work lines the budget cut (near-identical items merged
into one count once), the N of the "… and N more" line.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, tzinfo
from functools import lru_cache
from typing import Final, Protocol

from tutor_memory.domain import constants as C
from tutor_memory.domain import forgetting
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.calibration import Calibration
from tutor_memory.domain.episodes import (
    CheckEvidence,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    FileEvidence,
    Kind,
    QuizEvidence,
    TaughtEvidence,
    about_the_student,
    missed_note,
)
from tutor_memory.domain.excerpt import excerpt
from tutor_memory.domain.mapblock import MapSection
from tutor_memory.domain.recall import Mode, RecalledItem, RecallResult
from tutor_memory.domain.record_question import is_record_question as is_record_question
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.timewords import english_weekdays
from tutor_memory.domain.tokens import TokenCounter, count_tokens

# ``is_record_question`` is re-exported: the rule lives in domain.record_question (compiled once).

HEADER: Final = "===== YOUR MEMORY OF THIS STUDENT AND SUBJECT ====="
FOOTER: Final = "===== END OF MEMORY ====="
RECORD_LINE: Final = (
    "THE STUDENT IS ASKING ABOUT THEIR OWN RECORD. Answer from the beliefs and the earlier work "
    "listed here, and never say that nothing is recorded when something is listed."
)
BELIEFS_TITLE: Final = "WHAT YOU CURRENTLY BELIEVE ABOUT THIS STUDENT"
BELIEFS_HEADER: Final = f"{BELIEFS_TITLE} (from their checks; confidence 0–1):"
# With no belief line there is nothing for the legend to explain: the title alone, then the
# one statement (no checks yet, or checks not yet tied to the map).
NO_BELIEFS_HEADER: Final = f"{BELIEFS_TITLE}:"
NO_CHECKS_LINE: Final = "No checks recorded yet."
WORK_HEADER: Final = "EARLIER WORK WITH THIS STUDENT (oldest first):"
PROFILE_HEADER: Final = "ABOUT THE STUDENT (in every subject; what they or their teachers said):"
NO_WORK_LINE: Final = "No earlier work with this student is recorded yet."
NOTHING_MATCHED_LINE: Final = (
    "Nothing earlier matches this question; the most recent work is listed instead."
)
HOW_TO_USE_NO_MAP: Final = (
    "HOW TO USE THIS: it is your own memory of past work with this student, not their material. "
    'When you rely on it, say when it happened ("in July we…"). Never claim a memory that is not '
    "listed here."
)
# The map's sentence is said only where a map is given: without one it explains nothing.
HOW_TO_USE: Final = (
    f"{HOW_TO_USE_NO_MAP} The subject map describes the material, not the student's mastery."
)

_MONTHS: Final = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
)


# --- record questions ---------------------------------------------------------------------------

# Every run of letters or digits, single letters included (a line's words, ``_near_key``).
_WORD = re.compile(r"[^\W_]+")

# A question mark in the five languages' scripts (Latin, Arabic, full-width) or Spanish's
# opening one.
_QUESTION_MARKS: Final = frozenset("?\u061f\uff1f\u00bf")


def asks(text: str) -> bool:
    """Whether a student's message asks something, by its punctuation alone (the same in every
    language). A question typed without a mark reads "the student said:", which is still
    true; a statement never reads "you were asked:"."""
    return not _QUESTION_MARKS.isdisjoint(text)


# --- lines --------------------------------------------------------------------------------------


def _clip(text: str, limit: int = C.MAX_SUMMARY_CHARS) -> str:
    """One line, at most ``limit`` characters: a line break would break one-item-a-line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _number(value: float) -> str:
    return f"{value:g}"  # 7.0 → "7", 7.5 → "7.5"


def short_date(at: datetime, *, now: datetime, tz: tzinfo = UTC) -> str:
    """ "12 Jul", or "12 Jul 2025" when the year is not ``now``'s (both read in ``tz``)."""
    local = at.astimezone(tz)
    text = f"{local.day} {_MONTHS[local.month - 1]}"
    return text if local.year == now.astimezone(tz).year else f"{text} {local.year}"


def _when(item: RecalledItem, now: datetime, tz: tzinfo) -> str:
    first = short_date(item.first_at, now=now, tz=tz)
    last = short_date(item.last_at, now=now, tz=tz)
    return first if first == last else f"{first} – {last}"


def _said(ep: Episode, terms: Sequence[str]) -> str:
    """What a student's message or a tutor's answer shows: its summary, or for a long text and
    a question with terms, the excerpt (``domain.excerpt``). Where no sentence holds a term, a
    summary written for the episode (one its text does not hold) is shown rather than the
    text's opening, within the same cap: it says more."""
    if terms:
        cut = excerpt(ep.text, terms)
        if cut is not None:
            if not cut.matched and ep.summary.rstrip("…") not in ep.text:
                return _clip(ep.summary, C.BLOCK_EXCERPT_CHARS)
            return cut.text
    return _clip(ep.summary)


def _what(ep: Episode, terms: Sequence[str] = ()) -> str:
    evidence = ep.evidence
    match ep.kind:
        case Kind.QUESTION if asks(ep.summary):
            return f"you were asked: {_said(ep, terms)}"
        case Kind.QUESTION:  # what the student wrote is as often a statement as a question
            return f"the student said: {_said(ep, terms)}"
        case Kind.ANSWER:
            return f"you answered: {_said(ep, terms)}"
        case Kind.CHECK if isinstance(evidence, CheckEvidence):
            checked = f"check on {_clip(evidence.topic)}: {evidence.verdict}"
            noted = missed_note(ep)
            return (
                f"{checked}; you noted: {_clip(noted, C.BLOCK_EXCERPT_CHARS)}" if noted else checked
            )
        case Kind.QUIZ if isinstance(evidence, QuizEvidence):
            score = f"quiz: {_number(evidence.score)}/{_number(evidence.maximum)}"
            topics = ", ".join(_clip(t) for t in evidence.topics)
            return f"{score} on {topics}" if topics else score
        case Kind.TAUGHT if isinstance(evidence, TaughtEvidence):
            return f"the student taught you: {_clip(evidence.note)}"
        case Kind.FILE if isinstance(evidence, FileEvidence):
            return f"a file arrived: {_clip(evidence.name)}"
        case Kind.CONSOLIDATION:
            return f"summary of the day: {_clip(ep.summary)}"
        case Kind.CORRECTION if isinstance(evidence, CorrectionEvidence):
            reason = _clip(ep.text, C.BLOCK_EXCERPT_CHARS)
            return f"the {evidence.by} corrected an earlier record: {_clip(ep.summary)} ({reason})"
    return f"{ep.kind.value}: {_clip(ep.summary)}"  # evidence of an unexpected type


_CHANGES: Final = {
    "replaced": "replaced",
    "changed_replaced": "replaced",
    "removed": "removed",
    "changed_removed": "removed",
    "holds": "",  # verification results that are no change: no note
    "unverifiable": "",
}


def _change_note(item: RecalledItem, changed_files: Mapping[str, str]) -> str:
    for episode_id in (item.episode.episode_id, *item.collapsed_ids):
        if episode_id in changed_files:
            # An unknown value still means the file changed; say only what is known.
            how = _CHANGES.get(changed_files[episode_id], "replaced or removed")
            if how:
                return f" [note: the file this cited has since been {how}]"
    return ""


def work_line(
    item: RecalledItem,
    *,
    now: datetime,
    changed_files: Mapping[str, str] | None = None,
    tz: tzinfo = UTC,
    terms: Sequence[str] = (),
) -> str:
    """One earlier-work line, as the module describes it. ``terms`` are the question's
    analysed terms (``RecallResult.terms``): with them a long message or answer is shown by its
    excerpt; without them (the default) every line is the summary, as it always was."""
    return _line(item, _what(item.episode, terms), now, changed_files or {}, tz)


def _line(
    item: RecalledItem,
    what: str,
    now: datetime,
    changed_files: Mapping[str, str],
    tz: tzinfo,
    reasons: Mapping[str, str] | None = None,
) -> str:
    repeats = item.count - 1
    more = f" (and {repeats} more {'time' if repeats == 1 else 'times'} like it)" if repeats else ""
    note = _change_note(item, changed_files)
    fixed = item.episode.corrected_at
    if fixed is not None:  # shown as corrected (domain.corrections): say when it was, and why
        reason = (reasons or {}).get(item.episode.episode_id, "")
        why = f": {_clip(reason, C.BLOCK_EXCERPT_CHARS)}" if reason.strip() else ""
        note += f" (corrected on {short_date(fixed, now=now, tz=tz)}{why})"
    return f"- {_when(item, now, tz)} · {what}{more}{note}"


def without_shown_corrections(
    items: Sequence[RecalledItem],
) -> tuple[list[RecalledItem], dict[str, str]]:
    """``items`` without the corrections whose corrected episode is shown among them (its line
    already says the corrected value and when), and for each such episode the reason of the
    correction its note dates (the one at its ``corrected_at``): the note says it instead."""
    corrected = {
        item.episode.episode_id: item.episode.corrected_at
        for item in items
        if item.episode.corrected_at is not None
    }
    if not corrected:
        return list(items), {}
    kept: list[RecalledItem] = []
    reasons: dict[str, str] = {}
    for item in items:
        ep = item.episode
        evidence = ep.evidence
        if isinstance(evidence, CorrectionEvidence) and evidence.corrects in corrected:
            if ep.at == corrected[evidence.corrects]:
                reasons[evidence.corrects] = ep.text
            continue
        kept.append(item)
    return kept, reasons


def _days(item: RecalledItem, tz: tzinfo) -> set[str]:
    # Every day a collapsed line stands for: its repeats' ids are in the prompt too.
    times = item.collapsed_at or (item.first_at, item.last_at)
    return {at.astimezone(tz).date().isoformat() for at in times}


def without_summarised_days(items: Sequence[RecalledItem], tz: tzinfo) -> list[RecalledItem]:
    """``items`` without the consolidations whose day has its own episodes among them: a
    summary stands for its day only where the day itself is not shown, never beside it (the
    walkthrough spent 8 of 20 lines on summaries of the very episodes above them)."""
    if not any(item.episode.kind is Kind.CONSOLIDATION for item in items):
        return list(items)  # nothing to weigh: no day's every repeat is dated (150 x 46 at 10k)
    own_days: set[str] = set()
    for item in items:
        if item.episode.kind is not Kind.CONSOLIDATION:
            own_days |= _days(item, tz)
    kept = []
    for item in items:
        evidence = item.episode.evidence
        if isinstance(evidence, ConsolidationEvidence) and evidence.day in own_days:
            continue
        kept.append(item)
    return kept


# A leading speaker's name, as a chat line carries it ("Maya: ", "Ms Rivera: ", "مايا: "): up to
# three words of letters, then a colon and a space.
_SPEAKER: Final = re.compile(r"^\s*[^\W\d_][^\s:]*(?:\s+[^\W\d_][^\s:]*){0,2}\s*:\s+(?=\S)")
_CHAT: Final = (Kind.QUESTION, Kind.ANSWER)


def _near_key(ep: Episode, what: str) -> tuple[str, tuple[str, ...], datetime | None]:
    """Lines that differ only by case, punctuation, spacing or (a student's message, a tutor's
    answer) a leading speaker's name share this key: the kind, and the words of what the line
    shows (punctuation separates words, so "7/10" is not "71/0"). Accents count ("año" is not
    "ano"). No words: no key worth sharing (the caller keeps such a line alone). A corrected
    episode's line ends "(corrected on …)": only a line corrected at the same time is its twin
    (a right check and one corrected to right were one line, its note on both)."""
    return ep.kind.value, _shown_words(ep.kind in _CHAT, what), ep.corrected_at


@lru_cache(maxsize=C.ANALYSED_TEXTS_KEPT)
def _shown_words(chat: bool, what: str) -> tuple[str, ...]:
    """The words of a line's shown text, remembered: a pair's turns show many of the same
    lines one after another (a fifth of the block's CPU went to finding them again)."""
    shown = what.partition(": ")[2] if chat else what
    if chat:
        shown = _SPEAKER.sub("", shown, count=1)
    if not shown.isascii():
        shown = unicodedata.normalize("NFKC", shown)
    return tuple(_WORD.findall(shown.casefold()))


def _merged(kept: RecalledItem, others: Sequence[RecalledItem]) -> RecalledItem:
    """``kept`` (the better-scored) standing for ``others``' episodes too, as merging them one
    by one in their order would: each step's ids and times are the union of both (in time,
    then id, order) when both carry a time for every id, else the ids alone in order (the span
    from the items). Folded here with one sort at the end, not one per step: a repeated line
    meets dozens of others a turn."""
    count, first_at, last_at = kept.count, kept.first_at, kept.last_at
    ids, times = kept.collapsed_ids, kept.collapsed_at
    pairs: set[tuple[str, datetime]] | None = None  # while every step kept times: the union
    for other in others:
        count += other.count
        first_at, last_at = min(first_at, other.first_at), max(last_at, other.last_at)
        timed = len(other.collapsed_at) == len(other.collapsed_ids)
        if timed and (pairs is not None or len(times) == len(ids)):
            if pairs is None:
                pairs = set(zip(ids, times, strict=True))
            pairs.update(zip(other.collapsed_ids, other.collapsed_at, strict=True))
            continue
        if pairs is not None:
            ids, times, pairs = *_in_time_order(pairs), None
        ids, times = tuple(dict.fromkeys([*ids, *other.collapsed_ids])), ()
    if pairs is not None:
        ids, times = _in_time_order(pairs)
    return replace(
        kept,
        count=count,
        first_at=first_at,
        last_at=last_at,
        collapsed_ids=ids,
        collapsed_at=times,
    )


def _in_time_order(
    pairs: set[tuple[str, datetime]],
) -> tuple[tuple[str, ...], tuple[datetime, ...]]:
    ordered = sorted(pairs, key=lambda p: (p[1], p[0]))
    return tuple(i for i, _ in ordered), tuple(t for _, t in ordered)


def merge_near_identical(
    items: Sequence[RecalledItem], whats: Sequence[str]
) -> tuple[list[RecalledItem], list[str]]:
    """``items`` (best first) with their shown ``whats``, near-identical lines made one (see
    ``_near_key``): the best-scored item's line stays, in its place, standing for the others'
    episodes and counting them in its "(and N more times like it)". Best first still."""
    kept: list[RecalledItem] = []
    kept_whats: list[str] = []
    others: list[list[RecalledItem]] = []
    where: dict[tuple[str, tuple[str, ...], datetime | None], int] = {}
    for item, what in zip(items, whats, strict=True):
        key = _near_key(item.episode, what)
        if key[1] and key in where:
            others[where[key]].append(item)
            continue
        where[key] = len(kept)
        kept.append(item)
        kept_whats.append(what)
        others.append([])
    return [_merged(k, o) if o else k for k, o in zip(kept, others, strict=True)], kept_whats


def session_of(item: RecalledItem, tz: tzinfo) -> str:
    """An item's session: the calendar day of its shown episode in the student's time zone (a
    tutoring session rarely crosses midnight; nothing else in the log marks one)."""
    return item.episode.at.astimezone(tz).date().isoformat()


def diverse_order(items: Sequence[RecalledItem], tz: tzinfo) -> list[int]:
    """The positions of ``items`` (best first) in the order the budget keeps them: Maximal
    Marginal Relevance (Carbonell & Goldstein 1998) over sessions. Greedily, the next is the
    item of the highest score less ``BLOCK_SESSION_PENALTY`` if its session already has an
    item kept (the similarity of two items is 1 on one day, 0 otherwise, and MMR takes the
    largest, so the penalty does not grow with a day's count); ties go to the earlier position
    (the better-scored). The budget takes from this order every line that still fits
    (``fill_order``): it only decides what is cut, never whether what fits is kept.

    The greedy needs no loop: the items of one day share their penalty at every step, so they
    are taken in their own order, the day's first at its score and every later one after the
    day is seen, at its score less the penalty. Sorting by that value (then position) is the
    greedy's order, in O(n log n)."""
    seen: set[str] = set()
    value: list[float] = []
    for item in items:
        day = session_of(item, tz)
        value.append(round(item.score - (C.BLOCK_SESSION_PENALTY if day in seen else 0.0), 9))
        seen.add(day)
    return sorted(range(len(items)), key=lambda k: (-value[k], k))


def fill_order(prices: Sequence[int], room: int, more: Callable[[int], int]) -> list[int]:
    """The positions of a section's body lines (priced ``prices``, in the order the budget
    keeps them) with the lines that ``room`` holds first, in their order, then the others in
    theirs, so that a prefix of the result is what is shown. Each line is taken in turn when it
    fits what the lines taken before it left; while a line is left out, ``more(n)`` (the price
    of the "… and n more" line) is kept free, at its most (n the whole body). A line too long
    for what is left is passed over, and a shorter one after it may still be taken: the first
    line that does not fit does not end the section. Every line that a plain prefix would show
    is taken too (the lines before the first that does not fit are taken the same way)."""
    if sum(prices) <= room:
        return list(range(len(prices)))
    left = room - more(len(prices))
    taken: list[int] = []
    passed: list[int] = []
    for k, price in enumerate(prices):
        if price <= left:
            taken.append(k)
            left -= price
        else:
            passed.append(k)
    return [*taken, *passed]


def calibration_line(calibration: Calibration | None, *, as_of: str | None = None) -> str:
    """One line under the beliefs header: may the confidences be read as probabilities?

    ``calibration`` is the self-model's (the nightly loop's), as of the day ``as_of``. Checks
    carrying a prediction only accumulate, so "calibrated" stays true however stale the
    self-model; before it (or without one) the line keeps the article's limit."""
    if calibration is not None and calibration.calibrated:
        # "Calibrated" says only that enough predictions exist to measure; the error says how
        # far to trust them (beside an error of 0.44 the bare word read as "well calibrated").
        error = (
            f"; expected calibration error {calibration.ece:.2f}, so a confidence is a "
            "probability give or take that much"
            if calibration.ece is not None
            else ""
        )
        when = f" by {as_of}" if as_of else ""
        return (
            f"Confidence is calibrated: {calibration.checks} checks carried a prediction{when}"
            f"{error}."
        )
    return (
        "Confidence is not calibrated yet (fewer than "
        f"{C.CALIBRATION_MIN_CHECKS} checks carried a prediction): treat it as a ranking, "
        "not a probability."
    )


def _checks_line(checks_recorded: int) -> str:
    if checks_recorded <= 0:
        return NO_CHECKS_LINE
    if checks_recorded == 1:
        return "1 check recorded, but it could not yet be tied to a concept on the map."
    return f"{checks_recorded} checks recorded, but none could yet be tied to a concept on the map."


def _period(window: TimeWindow | None) -> str:
    """The time asked about as the block says it: "IN July 2026", "ON 14 Oct 2026", "FROM
    September 2026 TO October 2026", "SINCE March 2026", "FROM yesterday (29 Nov 2026)"."""
    label = window.label.strip() if window is not None else ""
    if not label:
        return "IN THE PERIOD ASKED ABOUT"
    if window is not None and window.bound:
        head, _, rest = label.partition(" ")  # "since March 2026" → "SINCE March 2026"
        return f"{head.upper()} {rest}"
    if " – " in label and (label[0].isdigit() or label[0].isupper()):
        return "FROM " + label.replace(" – ", " TO ", 1)  # a span: "September 2026 – …"
    if label[0].isdigit() or label.split(" ", 1)[0] in english_weekdays().values():
        return f"ON {label}"  # a day: "14 Oct 2026", "Friday (13 Nov 2026)"
    if label[0].isupper():
        return f"IN {label}"  # a month: "July 2026"
    return f"FROM {label}"  # relative: "last week (23–29 Nov 2026)", "yesterday (…)"


def empty_window_line(window: TimeWindow | None) -> str:
    return (
        f"THERE IS NO RECORD OF ANY WORK WITH THIS STUDENT {_period(window)}. "
        "Say so; do not describe a session from that time."
    )


def window_line(window: TimeWindow) -> str:
    """Under the earlier work's header when the question named a time: the list is that
    time's only, so that "nothing in October" is never read into a list the time narrowed."""
    head, _, rest = _period(window).partition(" ")
    rest = rest.replace(" TO ", " to ", 1)
    return f"Only the work {head.lower()} {rest} is listed: the time the student asked about."


def _more(n: int, noun: str) -> str:
    return f"- … and {n} more {noun}, not shown here"


# --- sections and the budget --------------------------------------------------------------------


@dataclass(frozen=True)
class _Section:
    """A head, then body lines that can be cut from the end, then a line saying how many were.

    A size is how many body lines are shown, or None when the section is left out. A ``whole``
    section is one statement ("No checks recorded yet."): shown entirely or not at all."""

    head: tuple[str, ...]
    body: tuple[str, ...]
    more_noun: str | None = None  # None: cut lines are not announced (the map's header counts)
    whole: bool = False

    def lines(self, shown: int | None) -> list[str]:
        if shown is None:
            return []
        out = [*self.head, *self.body[:shown]]
        if self.more_noun is not None and shown < len(self.body):
            out.append(_more(len(self.body) - shown, self.more_noun))
        return out

    def choices(self) -> list[int | None]:
        """Every size, largest first."""
        if self.whole:
            return [len(self.body), None]
        return [*range(len(self.body), -1, -1), None]

    def smaller(self, shown: int | None) -> int | None:
        if shown is None or shown == 0 or self.whole:
            return None
        return shown - 1


def _fit(section: _Section, budget: int, cost: Callable[[str], int]) -> tuple[int | None, int]:
    """The largest size of ``section`` whose lines cost at most ``budget``, and that cost.

    A running sum: the head and each body line are priced once (the prefix sums of the body),
    the "… and N more" line once per size tried, never the whole section again per size (it
    was ~8.7k prices a turn). The same result as summing ``section.lines(shown)``."""
    head = sum(cost(line) for line in section.head)
    prefix = [head]
    for line in section.body:
        prefix.append(prefix[-1] + cost(line))
    total = len(section.body)
    for shown in section.choices():
        if shown is None:
            spent = 0
        else:
            spent = prefix[shown]
            if section.more_noun is not None and shown < total:
                spent += cost(_more(total - shown, section.more_noun))
        if spent <= budget:
            return shown, spent
    return None, 0  # a negative budget: not even leaving the section out "fits"


@dataclass(frozen=True)
class MemoryBlock:
    text: str  # "" when not even the fixed lines fit (see ``empty_reason``)
    memory_ids: tuple[str, ...]  # episodes the shown lines stand for (see the module)
    belief_ids: tuple[str, ...]
    map_concepts: tuple[str, ...]
    tokens: int
    record_question: bool
    dropped_items: int  # recalled items the budget cut
    empty_reason: str | None = None


class AskedQuestion(Protocol):
    """What the block reads of the turn's ``domain.question.Question``."""

    @property
    def record(self) -> bool: ...


def build_block(
    *,
    question: AskedQuestion,
    recall: RecallResult,
    beliefs: Sequence[Belief],
    map_section: MapSection | None,
    changed_files: Mapping[str, str],
    checks_recorded: int,
    budget_tokens: int,
    now: datetime,
    tz: tzinfo = UTC,
    count: TokenCounter = count_tokens,
    calibration: str | None = None,
    profile: Sequence[str] = (),
) -> MemoryBlock:
    """The memory block for one turn (see the module for the layout and the budget rule).

    ``changed_files`` maps a recalled episode id to how its cited file changed ("replaced" or
    "removed"); ``checks_recorded`` is how many checks the pair has, so that a pair with checks
    but no belief is never told it has none; ``tz`` is the student's, for the dates shown;
    ``calibration`` (``calibration_line``) goes under the beliefs header when beliefs are shown;
    ``profile`` holds the lines of ABOUT THE STUDENT (``domain.profile.line``), in the order
    they are kept."""
    record = question.record

    fixed_top = [HEADER]
    if record:
        fixed_top.append(RECORD_LINE)
    if recall.window_empty:
        fixed_top.append(empty_window_line(recall.window))
    map_body = tuple(map_section.lines) if map_section is not None else ()
    fixed_bottom = [HOW_TO_USE if map_body else HOW_TO_USE_NO_MAP, FOOTER]
    fixed_cost = count("\n".join([*fixed_top, *fixed_bottom]))
    if fixed_cost > budget_tokens:
        return MemoryBlock(
            text="",
            memory_ids=(),
            belief_ids=(),
            map_concepts=(),
            tokens=0,
            record_question=record,
            dropped_items=0 if recall.window_empty else len(recall.items),
            empty_reason=(
                f"the budget of {budget_tokens} tokens cannot hold even the block's fixed lines "
                f"({fixed_cost} tokens)"
            ),
        )

    # Beliefs: current rows only, most confident first (also the order they are cut in).
    shown_beliefs = sorted(
        (b for b in beliefs if b.current),
        key=lambda b: (-b.confidence, b.concept_name, b.belief_id),
    )
    if shown_beliefs:
        belief_head = (BELIEFS_HEADER, calibration) if calibration else (BELIEFS_HEADER,)
        belief_section = _Section(
            belief_head, tuple(f"- {b.line()}" for b in shown_beliefs), "beliefs"
        )
    else:
        belief_section = _Section(
            (NO_BELIEFS_HEADER,), (_checks_line(checks_recorded),), whole=True
        )

    # Earlier work: near-identical lines made one, then the body in the order the budget keeps
    # items (best first; the diversity rule over sessions for a question's evidence), so that
    # cutting from its end drops the last kept; the survivors are put back in time order when
    # the block is written. Nothing may be presented as if from an empty time window: the
    # section is left out.
    kept: list[RecalledItem] = []
    whats: list[str] = []
    reasons: dict[str, str] = {}  # a shown corrected episode's id: its correction's reason
    if not recall.window_empty:
        shown_items = [i for i in recall.items if about_the_student(i.episode)]  # no entry
        shown_items, reasons = without_shown_corrections(shown_items)
        by_score = sorted(
            without_summarised_days(shown_items, tz),
            key=lambda i: (i.score, i.episode.at, i.episode.seq),
            reverse=True,
        )
        kept, whats = merge_near_identical(
            by_score, [_what(item.episode, recall.terms) for item in by_score]
        )
        if recall.mode is Mode.RELEVANT and kept:
            # The recent past (no question, or nothing matched) is listed by recency alone:
            # the latest session is what it is for.
            order = diverse_order(kept, tz)
            kept, whats = [kept[k] for k in order], [whats[k] for k in order]
    item_lines = [
        _line(item, what, now, changed_files, tz, reasons)
        for item, what in zip(kept, whats, strict=True)
    ]
    if recall.window_empty:
        work_section = _Section((), (), whole=True)
    elif not kept:
        work_section = _Section((WORK_HEADER,), (NO_WORK_LINE,), whole=True)
    else:
        head = [WORK_HEADER]
        if recall.window is not None:
            head.append(window_line(recall.window))
        if recall.mode is Mode.NOTHING_MATCHED:
            head.append(NOTHING_MATCHED_LINE)
        work_section = _Section(tuple(head), tuple(item_lines), "earlier items")

    map_part_section = _Section((), map_body)
    profile_section = _Section((PROFILE_HEADER,), tuple(profile), "more about the student")
    if not profile:
        profile_section = _Section((), (), whole=True)

    # Planning prices each line with its line break: exact for count_tokens, whose lines add
    # up; the real text is counted below for any counter that does not.
    newline = count("\n")
    costs: dict[str, int] = {}

    def cost(line: str) -> int:
        if line not in costs:
            costs[line] = count(line) + newline
        return costs[line]

    left = budget_tokens - fixed_cost
    if record:  # the record is the answer: the profile first
        n_profile, spent = _fit(profile_section, left, cost)
        left -= spent
    n_beliefs, spent = _fit(belief_section, left, cost)
    left -= spent
    share = C.BLOCK_MAP_SHARE_RECORD if record else C.BLOCK_MAP_SHARE
    map_promise = min(sum(cost(line) for line in map_body), math.floor(left * share))
    noun = work_section.more_noun
    if kept and noun is not None:
        # The lines the room holds first (``fill_order``), so that a prefix is what is shown.
        order = fill_order(
            [cost(line) for line in item_lines],
            left - map_promise - sum(cost(line) for line in work_section.head),
            lambda n: cost(_more(n, noun)),
        )
        kept = [kept[k] for k in order]
        item_lines = [item_lines[k] for k in order]
        work_section = replace(work_section, body=tuple(item_lines))
    n_work, spent = _fit(work_section, left - map_promise, cost)
    left -= spent
    if not record:  # after the question's evidence, before the map's leftover
        n_profile, spent = _fit(profile_section, left, cost)
        left -= spent
    n_map, _ = _fit(map_part_section, left, cost)

    def time_order(positions: range) -> list[int]:
        return sorted(
            positions,
            key=lambda k: (kept[k].first_at, kept[k].episode.seq, item_lines[k]),
        )

    def write(
        n_beliefs: int | None, n_work: int | None, n_map: int | None, n_profile: int | None
    ) -> str:
        work_part = work_section.lines(n_work)
        if kept and n_work:
            first = len(work_section.head)
            work_part[first : first + n_work] = [item_lines[k] for k in time_order(range(n_work))]
        beliefs_part = belief_section.lines(n_beliefs)
        map_part = map_part_section.lines(n_map)
        profile_part = profile_section.lines(n_profile)
        if record:
            body = [*profile_part, *beliefs_part, *work_part, *map_part]
        else:
            body = [*profile_part, *map_part, *beliefs_part, *work_part]
        return "\n".join([*fixed_top, *body, *fixed_bottom])

    text = write(n_beliefs, n_work, n_map, n_profile)
    while count(text) > budget_tokens:
        if n_work is not None:
            n_work = work_section.smaller(n_work)
        elif n_profile is not None:
            n_profile = profile_section.smaller(n_profile)
        elif n_map is not None:
            n_map = map_part_section.smaller(n_map)
        elif n_beliefs is not None:
            n_beliefs = belief_section.smaller(n_beliefs)
        else:  # the fixed lines alone fit (checked above), so this is not reached
            break
        text = write(n_beliefs, n_work, n_map, n_profile)

    n_shown = (n_work or 0) if kept else 0  # with no items, the one body line is a statement
    shown = [kept[k] for k in time_order(range(n_shown))]
    representatives = [item.episode.episode_id for item in shown]
    repeats = [i for item in shown for i in item.collapsed_ids if i != item.episode.episode_id]
    memory_ids = tuple(dict.fromkeys([*representatives, *repeats]))

    # The map's first line is its header; the next len(concept_keys) lines are its concepts.
    map_keys: tuple[str, ...] = ()
    if map_section is not None and n_map:
        map_keys = tuple(map_section.concept_keys[: n_map - 1])

    return MemoryBlock(
        text=text,
        memory_ids=memory_ids,
        belief_ids=tuple(b.belief_id for b in shown_beliefs[: n_beliefs or 0]),
        map_concepts=map_keys,
        tokens=count(text),
        record_question=record,
        dropped_items=len(kept) - len(shown),
    )


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.lru(_shown_words)
