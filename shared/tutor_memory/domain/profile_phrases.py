"""A student's message that says something about the student themselves (pure).

"My name is Maya", "I prefer examples first", "please always keep it short", "I have
dyslexia", "explain in Urdu", "my chemistry exam is on 12 May", "remember that I play the
violin" — in any of the five languages — become profile statements (``domain/profile.py``); a
claim about the subject ("remember that osmosis is …") stays teaching, and a question about the
subject stays a question. A goal or a need is heard only where the message states it of the
student: not in a question, not denied, not someone else's ("I don't have ADHD", "my brother
has dyslexia"); a wrong one would be shown in every subject's block (measured on real chat:
docs/testing.md).
The rule per aspect is in ``languages/base.py`` (the ``profile_*`` fields); the words are
each pack's. Checked in order: name, language, goal, accommodation,
preference, other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import date
from functools import cache

from tutor_memory.domain import constants as C
from tutor_memory.domain.language import detect_language, fold, is_stopword
from tutor_memory.domain.languages import LANGUAGES, Language
from tutor_memory.domain.plandates import plan_dates
from tutor_memory.domain.profile import Aspect, is_name_length
from tutor_memory.domain.timewords import month_names

_WORD = re.compile(r"[^\W_]+")
# A word as written, its marks kept inside it (an accent typed as a combining mark, Arabic
# vowel marks): the name is kept as the student wrote it, each word folded only to be matched.
_WRITTEN = re.compile(r"(?:[^\W_]|[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670])+")
# Where a name stops at the latest: the end of a clause, in the three scripts' punctuation
_CLAUSE_END = re.compile(r"[.,!?;:\n\u060c\u061b\u061f\u06d4]")
# A sentence, up to and with its end (a question's mark in the three scripts ends one too)
_SENTENCE = re.compile(r"[^.!?;\n\u061b\u061f\u06d4]+[.!?;\n\u061b\u061f\u06d4]*")


@dataclass(frozen=True)
class Heard:
    aspect: Aspect
    key: str
    value: str
    due: date | None = None


def _words(text: str) -> tuple[str, ...]:
    # every word, single letters too ("I"): fold() as the packs' lists are folded; a clause's
    # first word without the conjunction written into it
    words: list[str] = []
    for clause in _CLAUSE_END.split(fold(text)):
        found = _WORD.findall(clause)
        words += [_unclitic(found[0]), *found[1:]] if found else []
    return tuple(words)


def _unclitic(word: str) -> str:
    """A clause's first word without a proclitic written into it (Arabic "و" and: "واسمي
    ليلى", "وعندي عسر القراءة", "وأعطني دائما أمثلة") when only the rest is a word of a
    profile list, of three letters or more (Urdu "کیا" is no "ك" + "يا", "فلم" no "ف" + "لم")."""
    proclitics, vocabulary = _clitic_table()
    if len(word) > 3 and word[0] in proclitics and word not in vocabulary:
        rest = word[1:]
        if rest in vocabulary:
            return rest
    return word


@cache
def _clitic_table() -> tuple[frozenset[str], frozenset[str]]:
    """The proclitic letters of the packs that write them into words, and every word of those
    packs' profile lists (folded)."""
    packs = [p for p in LANGUAGES.values() if p.stopword_proclitics]
    proclitics = frozenset(fold(c) for p in packs for c in p.stopword_proclitics)
    phrases: list[str] = []
    for pack in packs:
        for name in (f.name for f in fields(pack) if f.name.startswith("profile_")):
            value = getattr(pack, name)
            groups = value.values() if isinstance(value, Mapping) else [value]
            for group in groups:
                if isinstance(group, (tuple, frozenset)):
                    phrases += [p for p in group if isinstance(p, str)]
    return proclitics, frozenset(_WORD.findall(fold(" ".join(phrases))))


@cache
def _phrases(code: str, field: str) -> tuple[tuple[str, ...], ...]:
    pack = LANGUAGES[code]
    return tuple(_words(p) for p in getattr(pack, field))


def _has(words: tuple[str, ...], phrases: tuple[tuple[str, ...], ...]) -> bool:
    for phrase in phrases:
        n = len(phrase)
        if n and any(words[i : i + n] == phrase for i in range(len(words) - n + 1)):
            return True
    return False


def _first(words: tuple[str, ...], table: dict[str, tuple[tuple[str, ...], ...]]) -> str | None:
    return next((key for key, phrases in table.items() if _has(words, phrases)), None)


def _named_first(
    words: tuple[str, ...], table: dict[str, tuple[tuple[str, ...], ...]]
) -> str | None:
    """The key of ``table`` whose phrase comes first in ``words``, or None."""
    at = {
        key: min(spans)[0] for key, phrases in table.items() if (spans := _spans_of(phrases)(words))
    }
    return min(at, key=lambda key: at[key]) if at else None


@cache
def _needs(code: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    return {k: tuple(_words(p) for p in v) for k, v in LANGUAGES[code].profile_needs.items()}


@cache
def _languages(code: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    return {k: tuple(_words(p) for p in v) for k, v in LANGUAGES[code].profile_languages.items()}


_NAMES = {"en": "English", "es": "Spanish", "id": "Indonesian", "ur": "Urdu", "ar": "Arabic"}


def _value(text: str) -> str:
    value = " ".join(text.split())
    return value[: C.MAX_PROFILE_VALUE_CHARS]


def _name_in(pack: Language, text: str) -> str | None:
    """The name a ``profile_name_cues`` phrase introduces, as written (see ``languages/base``
    for the rule), or None."""
    cues = _phrases(pack.code, "profile_name_cues")
    if not cues:
        return None
    for clause in _CLAUSE_END.split(text):
        spans = list(_WRITTEN.finditer(clause))
        folded = [fold(m.group()) for m in spans]
        folded[:1] = [_unclitic(w) for w in folded[:1]]  # its conjunction (see _words)
        for cue in cues:
            n = len(cue)
            for i in range(len(folded) - n + 1):
                if tuple(folded[i : i + n]) == cue:
                    words = _name_after(pack, [m.group() for m in spans[i + n :]], folded[i + n :])
                    if words:  # as written between its words too: "O'Brien", "Jean-Luc"
                        return clause[spans[i + n].start() : spans[i + n + words - 1].end()]
    return None


def _framed_name(pack: Language, text: str) -> str | None:
    """The name between the two phrases of a ``profile_name_frames`` pair ("مجھے مریم کہیں"),
    as written (see ``languages/base`` for the rule), or None."""
    frames = _frames(pack.code)
    if not frames:
        return None
    closers = {w for phrase in _phrases(pack.code, "profile_name_closers") for w in phrase}
    for clause in _CLAUSE_END.split(text):
        spans = list(_WRITTEN.finditer(clause))
        folded = [fold(m.group()) for m in spans]
        folded[:1] = [_unclitic(w) for w in folded[:1]]  # its conjunction (see _words)
        for before, after in frames:
            for i in range(len(folded) - len(before) + 1):
                if tuple(folded[i : i + len(before)]) != before:
                    continue
                start = i + len(before)
                for count in (1, 2):
                    end = start + count
                    if tuple(folded[end : end + len(after)]) != after:
                        continue
                    if not all(w in closers for w in folded[end + len(after) :]):
                        continue
                    written = [m.group() for m in spans[start:end]]
                    if _names_someone(pack, written, folded[start:end], closers):
                        return clause[spans[start].start() : spans[end - 1].end()]
    return None


@cache
def _frames(code: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    return tuple(
        (_words(before), _words(after))
        for before, afters in LANGUAGES[code].profile_name_frames.items()
        for after in afters
    )


def _names_someone(
    pack: Language, written: list[str], folded: list[str], closers: set[str]
) -> bool:
    """Whether the words between a frame's phrases are a name: letters, no function word,
    closer or epithet, each capitalised in Latin letters."""
    if _epithets_before(folded) or any(w in closers for w in folded):
        return False
    for word, plain in zip(written, folded, strict=True):
        if is_stopword(plain, pack.code) or not word[0].isalpha():
            return False
        if _in_latin_letters(word) and not word[0].isupper():
            return False
    return True


def _name_after(pack: Language, written: list[str], folded: list[str]) -> int:
    """How many of the words after the cue are the name (0: none)."""
    # Capitals tell a name in Latin letters (Roman Urdu's "mera naam Ali hai" too): one or
    # two capitalised words
    if pack.script == "latin" or (written and _in_latin_letters(written[0])):
        count = 0
        for word, plain in zip(written, folded, strict=True):
            if count == 2 or not word[0].isupper() or is_stopword(plain, pack.code):
                break
            count += 1
        return count
    # No capitals: one word, and nothing after it but a closing word ("ہے") in its clause
    closers = {w for phrase in _phrases(pack.code, "profile_name_closers") for w in phrase}
    if not written or is_stopword(folded[0], pack.code) or folded[0] in closers:
        return 0
    if not any(ch.isalpha() for ch in written[0]):  # "اسمي ١٢٣": digits name no one
        return 0
    return 1 if all(w in closers for w in folded[1:]) else 0


def _in_latin_letters(word: str) -> bool:
    """Whether ``word`` begins with a letter of the Latin blocks (Basic Latin to Latin
    Extended-B: "Ali", "Ángel")."""
    return word[0].isalpha() and word[0] <= "\u024f"


_Clause = tuple[str, list[re.Match[str]], list[str]]  # the clause, its words, folded


def _clause(text: str) -> _Clause:
    spans = list(_WRITTEN.finditer(text))
    return text, spans, [fold(m.group()) for m in spans]


@cache
def _cue_openers() -> frozenset[str] | None:
    """The first word of every language's address cues: a line whose opening clauses begin
    with none of them calls no one, and is let go before its language is read (a tutor's
    answer, not a greeting, costs a few µs instead of ~40 — an erasure that takes the name
    reads every answer of the student's pairs for a greeting). None when a cue is empty."""
    cues = [cue for code in LANGUAGES for cue in _phrases(code, "profile_address_cues")]
    if not all(cues):
        return None
    return frozenset(cue[0] for cue in cues)


@cache
def _cues_longest_first(code: str) -> tuple[tuple[str, ...], ...]:
    """The address cues, longer first: "Welcome Back!" is the cue "welcome back", not
    "welcome" and a name."""
    return tuple(sorted(_phrases(code, "profile_address_cues"), key=len, reverse=True))


def _address_in(pack: Language, clauses: list[_Clause], opening: int) -> str | None:
    """The name a ``profile_address_cues`` phrase calls the student by, as written (see
    ``languages/base`` for the rule), or None; the cue begins one of the first ``opening``
    clauses."""
    cues = _cues_longest_first(pack.code)
    particles = {w for phrase in _phrases(pack.code, "profile_address_particles") for w in phrase}
    for at, (clause, spans, folded) in enumerate(clauses[:opening]):
        for cue in cues:
            if tuple(folded[: len(cue)]) != cue:
                continue
            where, rest, plain = clause, spans[len(cue) :], folded[len(cue) :]
            if not rest and at + 1 < len(clauses):  # "Welcome back, Maya!": the next clause
                where, rest, plain = clauses[at + 1]
            if plain and plain[0] in particles:  # "أهلا يا ليلى"
                rest, plain = rest[1:], plain[1:]
            # "Good job, Champ!" calls no one; "Dik Putri", "querida Lucía" call Putri, Lucía
            title = _epithets_before(plain)
            rest, plain = rest[title:], plain[title:]
            count = _name_after(pack, [m.group() for m in rest], plain)
            if count and count == len(rest):  # the name ends its clause: "Hi Maya how…" no
                # "Maya Dear" calls her Maya
                while count > 1 and (plain[count - 1],) in _epithets().get(plain[count - 1], ()):
                    count -= 1
                return where[rest[0].start() : rest[count - 1].end()]
            break  # the longest cue that opens the clause is the one said
    return None


@cache
def _epithets() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Every language's ``profile_address_epithets`` by first word, longer first ("teman
    teman" is one epithet, not "teman" and a name): a line is read in the other languages too
    when its own finds nothing (an Urdu greeting may be taken for Arabic)."""
    every = {p for code in LANGUAGES for p in _phrases(code, "profile_address_epithets") if p}
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in sorted(every, key=lambda p: (-len(p), p)):
        by_first.setdefault(phrase[0], []).append(phrase)
    return {word: tuple(phrases) for word, phrases in by_first.items()}


def _epithets_before(words: list[str]) -> int:
    """How many of ``words`` (folded), from the first, are epithets (``_epithets``)."""
    epithets, at = _epithets(), 0
    while at < len(words):
        phrase = next(
            (p for p in epithets.get(words[at], ()) if tuple(words[at : at + len(p)]) == p), None
        )
        if phrase is None:
            return at
        at += len(phrase)
    return at


def addressed(text: str) -> str | None:
    """The name a tutor's line calls the student by ("Hi Maya!", "¡Hola Lucía!", "أهلا يا
    ليلى"), as written, or None. The greeting opens the message, or follows a speaker's label
    ("Jordan: Hi Maya!"): a greeting opens a message, while "Hello, World!" inside an answer
    is a program's output. What a tutor calls a student that is not a name ("Good job,
    Champ!", "Hello, World!", "شاباش بیٹا") names no one (``profile_address_epithets``).
    Only the opening is read (its own language first, then the others'): a long answer costs
    no more than a greeting."""
    split = _CLAUSE_END.split(text, maxsplit=3)
    opening = 1
    if len(split) > 1 and text[len(split[0])] == ":" and len(split[0].split()) <= 2:
        opening = 2  # "Jordan: …" or "Ms Rivera: …"
    split = split[: opening + 1]  # the name may be the clause after the cue's
    head = " ".join(split)
    if not _WORD.search(head):
        return None
    openers = _cue_openers()
    if openers is not None:  # a cue must open one of the opening clauses (``_address_in``)
        firsts = (_WRITTEN.search(clause) for clause in split[:opening])
        if not any(m is not None and fold(m.group()) in openers for m in firsts):
            return None
    clauses = [_clause(c) for c in split]
    first = detect_language(head)
    for code in [first, *(code for code in LANGUAGES if code != first)]:
        name = _address_in(LANGUAGES[code], clauses, opening)
        if name is not None and is_name_length(name):
            return _value(name)
    return None


def _heard_in(pack: Language, text: str, words: tuple[str, ...], today: date) -> Heard | None:
    code = pack.code
    name = _name_in(pack, text) or _framed_name(pack, text)
    if name is not None and is_name_length(name):  # a longer word is no one's name
        # but not a name refused: "don't call me Maya", "jangan panggil aku Putri"
        sentences = [found.group() for found in _SENTENCE.finditer(text)]
        if not _disowned(pack, sentences, _spans_of(_name_words(code)), others=False):
            return Heard(Aspect.NAME, "", _value(name))
        return None
    cues = _phrases(code, "profile_language_cues")
    if _has(words, cues):
        # The language the sentence of the cue names first ("can you explain in Urdu? I can't
        # read English" asks for Urdu); asked, as it mostly is, but not denied: "please don't
        # answer in Spanish" names the one language not to use.
        sentences = [found.group() for found in _SENTENCE.finditer(text)]
        asking = [_words(t) for t in sentences if _has(_words(t), cues)]
        named = next((n for w in asking if (n := _named_first(w, _languages(code)))), None)
        if named is not None and not _disowned(pack, sentences, _spans_of(cues)):
            return Heard(Aspect.LANGUAGE, "", _NAMES[named])
    # A goal and a need are read in what the message states, not in what it asks, and only
    # where it is neither denied nor someone else's (languages/base.py).
    stated = _statements(text)
    said = _words(" ".join(stated))
    mine = _has(said, _phrases(code, "profile_self"))
    goals = _goal_spans(pack)
    told = (mine and bool(_goal_word_spans(pack)(said))) or _owned_goal(pack, said)
    due = _plan_day(pack, stated, goals, today) if told else None
    if due is not None and not _disowned(pack, stated, goals):
        return Heard(Aspect.GOAL, due.isoformat(), _value(text), due)
    need = _first(said, _needs(code))
    if need is not None:
        at = _spans_of(_needs(code)[need])
        if _said_of_self(pack, stated, at, need) and not _disowned(pack, stated, at):
            return Heard(Aspect.ACCOMMODATION, need, _value(text))
    teaching = _phrases(code, "profile_teaching_words")
    if _has(words, _phrases(code, "profile_preference_cues")) and _has(words, teaching):
        return Heard(Aspect.PREFERENCE, "", _value(text))
    if any(_standing_request(code, _words(sentence), teaching) for sentence in stated):
        return Heard(Aspect.PREFERENCE, "", _value(text))
    if _has(words, _phrases(code, "profile_remember_cues")) and not _has(words, _in_class(code)):
        return Heard(Aspect.OTHER, "", _value(text))
    return None


@cache
def _in_class(code: str) -> tuple[tuple[str, ...], ...]:
    """Who names things in a class and where ("my teacher", "in our class"): a "remember that
    …" holding one is about the class's ways, kept with the subject, not the student's own
    (it was shown in every subject's block: "Remember that my teacher calls it 'water
    potential'")."""
    pack = LANGUAGES[code]
    return tuple(_words(p) for p in (*pack.teaching_namers, *pack.teaching_frames))


def _standing_request(
    code: str, words: tuple[str, ...], teaching: tuple[tuple[str, ...], ...]
) -> bool:
    """A sentence that asks the tutor for a way of teaching for good, in any word order
    ("dame siempre ejemplos primero", "hamesha pehle misaal do"): see languages/base.py."""
    return (
        _has(words, _phrases(code, "profile_standing_words"))
        and _has(words, _phrases(code, "profile_request_verbs"))
        and _has(words, teaching)
    )


def _plan_day(pack: Language, stated: list[str], goals: Spans, today: date) -> date | None:
    """The goal's day: the first a sentence that tells the goal names ("I need to study for my
    final tomorrow. But I want to hear why you went on a mission!" plans for tomorrow: the
    past of another sentence is not the plan's), else the first the whole statement names
    ("My exam is coming up. It's on Friday."). A day denied where it is named is no day: "my
    exam is not on 12 December, it's on 15 December" plans for the 15th (it was the 12th),
    and a message that denies every day it names plans for none."""
    telling = [s for s in stated if goals(_words(s))]
    return _undenied_day(pack, telling, today) or _undenied_day(pack, [" ".join(stated)], today)


def _undenied_day(pack: Language, sentences: list[str], today: date) -> date | None:
    days = _day_spans(pack.code)
    for sentence in sentences:
        # a denial near a day: read the sentence clause by clause, the denied ones left out
        parts = (
            [c for c in _CLAUSE_END.split(sentence) if not _disowned(pack, [c], days, others=False)]
            if _disowned(pack, [sentence], days, others=False)
            else [sentence]
        )
        for part in parts:
            dates = plan_dates(part, today, pack)
            if dates:
                return dates[0]
    return None


@cache
def _day_spans(code: str) -> Spans:
    """Where a day is named: a day number, a month name, a one-word day ("tomorrow", "کل");
    not each word of "day after tomorrow" ("no class after" denies no day)."""
    pack = LANGUAGES[code]
    said = (_words(phrase) for phrases in pack.plan_days.values() for phrase in phrases)
    names = month_names() | {words[0] for words in said if len(words) == 1}

    def spans(words: tuple[str, ...]) -> list[tuple[int, int]]:
        return [
            (i, i + 1) for i, w in enumerate(words) if w in names or (w.isdigit() and len(w) <= 2)
        ]

    return spans


def _statements(text: str) -> list[str]:
    """The message's sentences less what they ask: a sentence that ends in a question mark
    says nothing of the student ("do I have ADHD?", "is my exam on Friday?"), but only its
    last clause asks ("my exam is on Friday, can you help me?" states the first)."""
    stated = []
    for found in _SENTENCE.finditer(text):
        sentence = found.group()
        if sentence.rstrip().endswith(("?", "\u061f")):
            sentence = sentence[: max(sentence.rfind(","), sentence.rfind("\u060c"), 0)]
        if _WORD.search(sentence):
            stated.append(sentence)
    return stated


Spans = Callable[[tuple[str, ...]], list[tuple[int, int]]]
# The words that may stand between a goal or a need and what governs it in the verb phrase
# that holds it, in its clause: a word of denial ("I do not have dyslexia", "I don't have any
# scheduled finals", "no tengo examen", "aku tidak punya ADHD", "ليس عندي امتحان"; after it
# in Urdu, whose verb comes last: "میرا امتحان جمعہ کو نہیں ہے"), or the student's own words
# before a need ("I was diagnosed with ADHD"). Farther off they govern something else: "I
# have a test tomorrow and I am not excited about it" has a test, "I run into deaf people a
# lot" says no need of the student's; "No, my exam is on Saturday" is another clause.
PHRASE_REACH = 3


def _spans_of(phrases: tuple[tuple[str, ...], ...]) -> Spans:
    """Where ``phrases`` stand in a sentence's words: (start, end) each."""

    def spans(words: tuple[str, ...]) -> list[tuple[int, int]]:
        return [
            (i, i + len(phrase))
            for phrase in phrases
            if phrase
            for i in range(len(words) - len(phrase) + 1)
            if words[i : i + len(phrase)] == phrase
        ]

    return spans


@cache
def _goal_word_spans(pack: Language) -> Spans:
    """Where a goal word stands as a noun: "test me", "to quiz", "test my code" tell no exam
    (``profile_goal_verb_before`` / ``_after``)."""
    words_of = _spans_of(_phrases(pack.code, "profile_goal_words"))
    verbs = frozenset(_words(" ".join(pack.profile_goal_verbs)))
    before = frozenset(_words(" ".join(pack.profile_goal_verb_before)))
    after = frozenset(_words(" ".join(pack.profile_goal_verb_after)))

    def spans(words: tuple[str, ...]) -> list[tuple[int, int]]:
        return [
            (start, end)
            for start, end in words_of(words)
            if words[start] not in verbs
            or not (
                (start > 0 and words[start - 1] in before)
                or (end < len(words) and words[end] in after)
            )
        ]

    return spans


@cache
def _goal_spans(pack: Language) -> Spans:
    """Where a goal word stands as a noun, or a goal made the student's by a possessive
    ending."""
    nouns = _goal_word_spans(pack)
    return lambda words: [*nouns(words), *_owned_spans(pack, words)]


# Needs that are the student's only about tests: "extra time" is also an afternoon's.
_TEST_NEEDS = frozenset({"extra time"})


def _said_of_self(pack: Language, sentences: list[str], tells: Spans, need: str) -> bool:
    """Whether a clause says the need of the student: one of their own words ("I have", "I'm",
    "tengo", "saya punya", "مجھے", "عندي") within ``PHRASE_REACH`` words before it ("I was
    diagnosed with ADHD"), as the verb phrase that holds it; "I run into deaf people a lot"
    and "autism, have you seen Temple Grandin?" say nothing of the student's own. Extra time
    is theirs in a clause about tests ("I get extra time in tests", not "I have some extra
    time to chat")."""
    selves = _spans_of(_phrases(pack.code, "profile_self"))
    tests = _phrases(pack.code, "profile_goal_words")
    for sentence in sentences:
        for clause in _CLAUSE_END.split(sentence):
            words = _words(clause)
            if need in _TEST_NEEDS and not _has(words, tests):
                continue
            for start, _ in tells(words):
                if any(0 <= start - end <= PHRASE_REACH for _, end in selves(words)):
                    return True
    return False


def _disowned(pack: Language, sentences: list[str], tells: Spans, *, others: bool = True) -> bool:
    """Whether what a sentence tells (where ``tells`` finds it) is denied there — a word of
    denial within ``PHRASE_REACH`` words of it ("I don't have ADHD"; "I have dyslexia, no long
    paragraphs please" is told) — or (``others``) is about someone else — the sentence names
    another person ("my brother, who is twelve, has dyslexia"): then it is not the
    student's."""
    denials = _spans_of(_phrases(pack.code, "profile_negations"))
    people = _phrases(pack.code, "profile_others") if others else ()
    after = pack.profile_negation_after
    for sentence in sentences:
        words = _words(sentence)
        if not tells(words):
            continue
        if _has(words, people):
            return True
        for clause in _CLAUSE_END.split(sentence):
            words = _words(clause)
            for start, end in tells(words):
                for d_start, d_end in denials(words):
                    if 0 <= (d_start - end if after else start - d_end) <= PHRASE_REACH:
                        return True
    return False


@cache
def _name_words(code: str) -> tuple[tuple[str, ...], ...]:
    """The pack's phrases that name the student: its cues and both halves of its frames."""
    pack = LANGUAGES[code]
    framed = [p for before, after in pack.profile_name_frames.items() for p in (before, *after)]
    return tuple(_words(p) for p in (*pack.profile_name_cues, *framed))


def _owned_goal(pack: Language, words: tuple[str, ...]) -> bool:
    return bool(_owned_spans(pack, words))


def _owned_spans(pack: Language, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where a goal word is made the student's by a possessive ending, on it or on the word
    after it (Indonesian "ujianku", "ujian biologiku": my exam, my biology exam)."""
    if not pack.profile_self_suffixes:
        return []
    goals = {p[0] for p in _phrases(pack.code, "profile_goal_words") if len(p) == 1}
    found = []
    for i, word in enumerate(words):
        for suffix in pack.profile_self_suffixes:
            stem = word.removesuffix(suffix)
            if stem == word or len(stem) < 2:
                continue
            if stem in goals:
                found.append((i, i + 1))
            elif i > 0 and words[i - 1] in goals:
                found.append((i - 1, i + 1))
    return found


def heard(text: str, today: date) -> Heard | None:
    """What ``text`` (a student's message) says about the student, or None. The message's
    own language is read first, then the others (a short message is hard to detect)."""
    words = _words(text)
    if not words:
        return None
    first = detect_language(text)
    order = [first, *(code for code in LANGUAGES if code != first)]
    for code in order:
        found = _heard_in(LANGUAGES[code], text, words, today)
        if found is not None:
            return found
    return None
