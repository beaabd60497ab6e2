"""Teaching the map by talking to it (SPEC §5): only an explicit instruction teaches.

"Remember that in our class we call the mitochondria the powerhouse of the cell" attaches a
taught note to the concept it names; a sentence that names no known concept mints a node with a
short name. Three pure functions, all deterministic:

* :func:`detect_teaching` — is this message an instruction to keep something, and what note?
  Only a sentence that *opens* with "remember that …" or "treat X as Y" (or the same phrasing in
  es, id, ur, ar; the packs' ``teaching_*``) teaches. A question never does: any "?", "؟" or "¿"
  in the message, or a first sentence opening with a question word ("do you remember that …",
  "apakah kamu ingat …", "کیا …", "هل …"), and nothing is taught. Wrongly teaching costs more
  than missing an instruction (a taught note sets readiness to 1.0 and rides in every block),
  so the rules lean to "no".
* :func:`route_taught` — the known concept a note names, by exact canonical name only.
* :func:`short_name` — a name of at most four words for a node minted from a note.

What is stored is the *claim* (``TeachingIntent.claim``, issue 18): a naming or treating
sentence becomes "<X> = <Y>" ("in our class we call the mitochondria the powerhouse of the
cell" → "mitochondria = the powerhouse of the cell"), from "we call X Y", "treat X as Y", "X is
the same as Y", "X means Y" (the packs' ``teaching_naming``, ``teaching_treat``,
``teaching_same_as``, ``teaching_means``, and the verb-final forms). Any other note is stored as
it is. The student's full sentence stays the ``taught`` episode's text.

The *subject* of a note is the thing its phrasing says it is about: X in "treat X as Y", X in
"we call X Y" ("llamamos a X …", "kami menyebut X sebagai …", "ہم X کو … کہتے ہیں", "نسمي X …").
Both routing and naming prefer it, so "we call the Golgi body the post office of the cell" is
about the Golgi body, not the cell.

Words are matched folded (``language.fold``) and whole, so "Tenga en cuenta" and "tenga en
cuenta", "تذكّر" and "تذكر" match alike; notes and names keep the text as the person wrote it.

A student's instruction about the people talking ("remember that you promised to quiz me")
is not the subject: :func:`about_the_conversation` says so, and the map's use case keeps such
a message as a question (as it does a note longer than a note may be, :func:`check_note_fits`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import pairwise
from typing import Final

from tutor_memory.domain import constants as C
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.language import LANGUAGES, detect_language, fold, is_stopword
from tutor_memory.domain.languages import LANGUAGES as PACKS
from tutor_memory.domain.languages import Language, language

__all__ = [
    "TeachingIntent",
    "TeachingKind",
    "about_the_conversation",
    "check_note_fits",
    "claim_of",
    "detect_teaching",
    "route_taught",
    "same_as",
    "short_name",
]


class TeachingKind(StrEnum):
    REMEMBER = "remember"  # "remember that …": the note is what follows
    TREAT = "treat"  # "treat X as Y": the note is the whole instruction


@dataclass(frozen=True)
class TeachingIntent:
    """An instruction to keep something, as the person wrote it.

    ``note`` is what was said to be kept: for "remember that …" the rest of the sentence; for
    "treat X as Y" the instruction itself (it reads as one). Routing and naming read it.
    ``claim`` is what goes on the concept and into the block: "X = Y" when the note is a
    naming or treating (:func:`claim_of`), else the note itself. ``subject`` is the thing the
    phrasing names (X of "treat X as Y" or "we call X …"), or None. ``language`` is the
    language of the phrase that made it an instruction.
    """

    note: str
    kind: TeachingKind
    language: str
    claim: str
    subject: str | None = None


# --- words with their place in the text -------------------------------------------------------

# Question marks in any of the five languages: their presence alone means "not an instruction".
_QUESTION_MARKS: Final = frozenset("?؟¿")
# Characters between two words that end a sentence ("." only before a space: 3.5 is a number).
_SENTENCE_ENDS: Final = frozenset("!۔\n")
# Characters between two words that end a name ("the cell, the membrane" is two things).
_NAME_BREAKS: Final = frozenset(',;:.!()[]{}"“”«»—–،؛۔\n')
# Zero-width (non-)joiners sit inside Urdu and Arabic words.
_JOINERS: Final = frozenset("\u200c\u200d")

Phrase = tuple[str, ...]


@dataclass(frozen=True)
class _Word:
    text: str  # as written
    folded: str
    start: int
    end: int


def _is_word_char(ch: str) -> bool:
    # Combining marks count: Arabic harakat and shadda sit inside words (تذكّر is one word).
    return ch.isalnum() or unicodedata.category(ch).startswith("M") or ch in _JOINERS


def _scan(text: str) -> list[_Word]:
    words: list[_Word] = []
    i, n = 0, len(text)
    while i < n:
        if not _is_word_char(text[i]):
            i += 1
            continue
        j = i
        while j < n and _is_word_char(text[j]):
            j += 1
        folded = fold(text[i:j])
        if folded:
            words.append(_Word(text[i:j], folded, i, j))
        i = j
    return words


def _breaks(text: str, before: _Word, after: _Word, chars: frozenset[str]) -> bool:
    return any(ch in chars for ch in text[before.end : after.start])


def _ends_sentence(text: str, before: _Word, after: _Word) -> bool:
    gap = text[before.end : after.start]
    if any(ch in _SENTENCE_ENDS for ch in gap):
        return True
    dot = gap.find(".")
    return 0 <= dot < len(gap) - 1 and gap[dot + 1].isspace()


@dataclass(frozen=True)
class _Sentence:
    words: list[_Word]
    end: int  # where its text stops (before the terminator)


def _sentences(text: str, words: list[_Word]) -> list[_Sentence]:
    groups: list[list[_Word]] = []
    for k, word in enumerate(words):
        if k == 0 or _ends_sentence(text, words[k - 1], word):
            groups.append([])
        groups[-1].append(word)
    out: list[_Sentence] = []
    for g, group in enumerate(groups):
        stop = groups[g + 1][0].start if g + 1 < len(groups) else len(text)
        tail = text[group[-1].end : stop]
        cut = next((p for p, ch in enumerate(tail) if ch in _SENTENCE_ENDS or ch == "."), len(tail))
        out.append(_Sentence(group, group[-1].end + cut))
    return out


# --- the word lists, folded once ----------------------------------------------------------------


def _compile(phrases: Iterable[str]) -> tuple[Phrase, ...]:
    compiled = {tuple(w.folded for w in _scan(p)) for p in phrases}
    # longest first, so "anggap saja" wins over "anggap" and "acuérdate de que" over nothing
    return tuple(sorted((p for p in compiled if p), key=lambda p: (-len(p), p)))


def _fold_set(words: Iterable[str]) -> frozenset[str]:
    return frozenset(fold(w) for w in words)


@dataclass(frozen=True)
class _Lists:
    remember: dict[str, tuple[Phrase, ...]]
    that_with_pronoun: dict[str, frozenset[str]]
    treat: dict[str, tuple[Phrase, ...]]
    treat_as: dict[str, frozenset[str]]
    naming: dict[str, tuple[Phrase, ...]]
    means: dict[str, tuple[Phrase, ...]]  # "X means Y" and "X is the same as Y", longest first
    articles: dict[str, frozenset[str]]
    name_ends: dict[str, frozenset[str]]
    lead_ins: tuple[Phrase, ...]
    openers: tuple[Phrase, ...]
    frames: tuple[Phrase, ...]
    # verb-final teaching (Urdu): X کو Y سمجھو, ہم X کو Y کہتے ہیں
    object_markers: dict[str, frozenset[str]]
    treat_verbs: dict[str, frozenset[str]]
    naming_verbs: dict[str, frozenset[str]]
    manner: dict[str, frozenset[str]]
    genitives: dict[str, frozenset[str]]
    namer_words: dict[str, frozenset[str]]  # the last word of each of ``teaching_namers``
    verb_final: tuple[str, ...]  # the languages that teach that way
    definite_article: dict[str, str]  # written into the word (Arabic ال), or ""


@cache
def _lists() -> _Lists:
    packs = PACKS.values()

    def each(table: Callable[[Language], Iterable[str]]) -> dict[str, tuple[Phrase, ...]]:
        return {pack.code: _compile(table(pack)) for pack in packs}

    def each_set(table: Callable[[Language], Iterable[str]]) -> dict[str, frozenset[str]]:
        return {pack.code: _fold_set(table(pack)) for pack in packs}

    def every(table: Callable[[Language], Iterable[str]]) -> tuple[Phrase, ...]:
        return _compile(p for pack in packs for p in table(pack))

    return _Lists(
        remember=each(lambda pack: pack.teaching_remember),
        that_with_pronoun=each_set(lambda pack: pack.teaching_that_with_pronoun),
        treat=each(lambda pack: pack.teaching_treat),
        treat_as=each_set(lambda pack: pack.teaching_treat_as),
        naming=each(lambda pack: pack.teaching_naming),
        means=each(lambda pack: (*pack.teaching_means, *pack.teaching_same_as)),
        articles=each_set(lambda pack: pack.teaching_articles),
        name_ends=each_set(lambda pack: pack.teaching_name_ends),
        lead_ins=every(lambda pack: pack.teaching_lead_ins),
        openers=every(lambda pack: pack.teaching_question_openers),
        frames=every(lambda pack: pack.teaching_frames),
        object_markers=each_set(lambda pack: pack.object_markers),
        treat_verbs=each_set(lambda pack: pack.treat_verbs_after),
        naming_verbs=each_set(lambda pack: pack.naming_verbs_after),
        manner=each_set(lambda pack: pack.treat_manner_words),
        genitives=each_set(lambda pack: pack.genitives),
        namer_words=each_set(lambda pack: (p.split()[-1] for p in pack.teaching_namers)),
        verb_final=tuple(pack.code for pack in packs if pack.object_markers),
        definite_article={pack.code: fold(pack.definite_article) for pack in packs},
    )


def _match(words: Sequence[_Word], i: int, phrases: tuple[Phrase, ...]) -> int:
    """How many words the longest phrase matching at ``words[i]`` spans (0: none)."""
    for phrase in phrases:
        if tuple(w.folded for w in words[i : i + len(phrase)]) == phrase:
            return len(phrase)
    return 0


def _match_remember(words: Sequence[_Word], i: int, lang: str) -> int | None:
    """Where the note starts after a remember phrase at ``words[i]``, or None.

    Arabic fuses "that" with a pronoun (أننا, "that we"): that word may end the phrase and
    stays in the note."""
    lists = _lists()
    for phrase in lists.remember[lang]:
        n = len(phrase)
        head = tuple(w.folded for w in words[i : i + n])
        if head == phrase:
            return i + n
        fused = lists.that_with_pronoun[lang]
        if len(head) == n and head[:-1] == phrase[:-1] and head[-1] in fused:
            return i + n - 1
    return None


def _opens_instruction(words: Sequence[_Word], i: int) -> bool:
    lists = _lists()
    return any(
        _match_remember(words, i, lang) is not None or _match(words, i, lists.treat[lang])
        for lang in LANGUAGES
    )


def _skip_lead_ins(words: Sequence[_Word]) -> int:
    """The index after "please", "ok", "por favor", "من فضلك" … (an instruction wins a tie:
    "harap diingat bahwa" is an instruction, not a lead-in and the rest)."""
    i = 0
    while i < len(words) and not _opens_instruction(words, i):
        n = _match(words, i, _lists().lead_ins)
        if not n:
            break
        i += n
    return i


# --- names inside a note ------------------------------------------------------------------------


def _trim_stopwords(words: list[_Word], lang: str) -> list[_Word]:
    start, end = 0, len(words)
    while start < end and is_stopword(words[start].folded, lang):
        start += 1
    while end > start and is_stopword(words[end - 1].folded, lang):
        end -= 1
    return words[start:end]


def _definite_run(text: str, words: Sequence[_Word], lang: str) -> list[_Word]:
    """The first word and the words after it that carry the article written into the word
    (Arabic ال): an idafa ("غشاء الخلية") or a definite adjective ("النقل السلبي"); "محطة" in
    "الميتوكوندريا محطة الطاقة" starts what is said about it."""
    article = _lists().definite_article[lang]
    run = list(words[:1])
    for word in words[1 : C.MAX_SHORT_NAME_WORDS]:
        if (
            _breaks(text, run[-1], word, _NAME_BREAKS)
            or not word.folded.startswith(article)
            or is_stopword(word.folded, lang)
        ):
            break
        run.append(word)
    return run


def _name_after(text: str, words: Sequence[_Word], lang: str, ends: frozenset[str]) -> list[_Word]:
    """The named thing at the start of ``words``.

    Leading articles are dropped; the name runs until one of ``ends``, an article (en/es: "we
    call [the Golgi body] the post office") or punctuation. When nothing marks its end ("we
    call osmosis passive diffusion"), the name cannot be told from what follows: only the first
    word is taken (Arabic: with its definite run, see ``_definite_run``).
    """
    articles = _lists().articles[lang]
    i = 0
    while i < len(words) and words[i].folded in articles:
        i += 1
    name: list[_Word] = []
    for word in words[i:]:
        if len(name) > C.MAX_CONCEPT_NAME_WORDS:
            break  # longer than any name: nothing marks its end (and each start reads no more)
        if name and _breaks(text, name[-1], word, _NAME_BREAKS):
            break
        if word.folded in ends or (name and word.folded in articles):
            return name
        name.append(word)
    if _lists().definite_article[lang]:
        return _definite_run(text, name, lang)
    return name[:1]


def _treat_subject(text: str, words: Sequence[_Word], lang: str) -> list[_Word] | None:
    """X of "treat X as Y" (``words`` start after the verb), or None when it is not that
    phrasing: no "as" word (unless the language needs none: Arabic), or no Y."""
    parts = _treat_parts(text, words, lang)
    return parts[0] if parts else None


def _treat_parts(text: str, words: Sequence[_Word], lang: str) -> tuple[list[_Word], int] | None:
    """X of "treat X as Y" and where Y starts in ``text`` (after the "as" word), or None."""
    lists = _lists()
    as_words = lists.treat_as[lang]
    name = _trim_stopwords(_name_after(text, words, lang, lists.name_ends[lang] | as_words), lang)
    if not name:
        return None
    said_at = name[-1].end
    rest = words[words.index(name[-1]) + 1 :]
    if not language(lang).treat_as_optional:
        at = next((k for k, w in enumerate(rest) if w.folded in as_words), None)
        if at is None:
            return None
        said_at = rest[at].end
        rest = rest[at + 1 :]
    elif rest and rest[0].folded in as_words:
        said_at = rest[0].end
        rest = rest[1:]
    return (name, said_at) if _trim_stopwords(list(rest), lang) else None


def _verb_final_subject(
    text: str, words: Sequence[_Word], *, treat_only: bool
) -> tuple[list[_Word], str] | None:
    """X of "X کو Y سمجھو" (treat) or "ہم X کو Y کہتے ہیں" (we call), and its language, in a
    verb-final language (``object_markers``): the words before the object marker back to the
    first stopword ("ہم"), or None.

    For the treat form, Y must say something: "X کو اچھی طرح سمجھو" is "understand X well"."""
    found = _verb_final_parts(text, words, treat_only=treat_only)
    return (found[0], found[1]) if found else None


def _verb_final_parts(
    text: str, words: Sequence[_Word], *, treat_only: bool
) -> tuple[list[_Word], str, str] | None:
    """X, its language and Y of the verb-final forms (see ``_verb_final_subject``): Y is the
    text between the object marker and the verb."""
    lists = _lists()
    for lang in lists.verb_final:
        last = len(words) - 1
        naming, manner = lists.naming_verbs[lang], lists.manner[lang]
        treat = last >= 0 and words[last].folded in lists.treat_verbs[lang]
        # Where the last naming verb is, and the last word before the treat verb that says
        # something: an object marker before it has one after it. Read once, not again for
        # each marker (a message of thousands of them took 1.5 s CPU at 18,000 characters).
        last_naming = -1
        if not treat_only:
            last_naming = max((i for i, w in enumerate(words) if w.folded in naming), default=-1)
        last_meaningful = -1
        if treat:
            last_meaningful = max(
                (
                    i
                    for i, w in enumerate(words[:last])
                    if not is_stopword(w.folded, lang) and w.folded not in manner
                ),
                default=-1,
            )
        for k, word in enumerate(words):
            if word.folded not in lists.object_markers[lang] or k == 0:
                continue
            treat_here = k < last_meaningful
            if not (k < last_naming or treat_here):
                continue
            name = _name_before(text, words[:k], lang)
            if not name:
                break
            if treat_here:
                verb = words[last]
            else:
                verb = next(w for w in words[k + 1 :] if w.folded in naming)
            return name, lang, text[word.end : verb.start]
    return None


def _name_before(text: str, words: Sequence[_Word], lang: str) -> list[_Word]:
    """The name that ends the words before کو, walking back to the first stopword or the
    word of one who names it (``teaching_namers``); a genitive joins it when a name precedes
    that ("خلیے کی جھلی", the membrane of the cell)."""
    genitives, namers = _lists().genitives[lang], _lists().namer_words[lang]
    run: list[_Word] = []
    k = len(words) - 1
    while k >= 0 and len(run) < C.MAX_SHORT_NAME_WORDS:
        word = words[k]
        if run and _breaks(text, word, run[0], _NAME_BREAKS):
            break
        if run and word.folded in namers:  # "hamare teacher X ko …": the teacher names X
            break
        if not is_stopword(word.folded, lang):
            run.insert(0, word)
            k -= 1
            continue
        owner = words[k - 1] if k > 0 else None
        if (
            run
            and word.folded in genitives
            and owner is not None
            and not is_stopword(owner.folded, lang)
            and len(run) + 2 <= C.MAX_SHORT_NAME_WORDS
        ):
            run[:0] = [owner, word]
            k -= 2
            continue
        break
    return run


def _subject(text: str, words: Sequence[_Word]) -> list[_Word] | None:
    """The thing a note's phrasing names, if it names one (see the module docstring)."""
    lists = _lists()
    start = _skip_lead_ins(words)
    for lang in LANGUAGES:
        n = _match(words, start, lists.treat[lang])
        if n:
            found = _treat_subject(text, words[start + n :], lang)
            if found:
                return found
    for k in range(len(words)):
        for lang in LANGUAGES:
            n = _match(words, k, lists.naming[lang])
            if n:
                after = words[k + n :]
                name = _trim_stopwords(_name_after(text, after, lang, lists.name_ends[lang]), lang)
                if name:
                    return name
    verb_final = _verb_final_subject(text, words, treat_only=False)
    return verb_final[0] if verb_final else None


def _join(words: Sequence[_Word]) -> str:
    return " ".join(w.text for w in words[: C.MAX_SHORT_NAME_WORDS])


# --- the three functions ------------------------------------------------------------------------


def detect_teaching(message: str) -> TeachingIntent | None:
    """The instruction in ``message``, or None when it is not one (see the module docstring).

    The first sentence that opens (after "please", "ok" …) with a remember or treat phrase
    carries the note; the note ends with that sentence.
    """
    if any(ch in _QUESTION_MARKS for ch in message):
        return None
    words = _scan(message)
    if not words:
        return None
    sentences = _sentences(message, words)
    lists = _lists()
    for s, sentence in enumerate(sentences):
        ws = sentence.words
        i = _skip_lead_ins(ws)
        if not _opens_instruction(ws, i) and _match(ws, i, lists.openers):
            if s == 0:
                return None  # a message that opens with a question teaches nothing
            continue
        intent = _instruction(message, sentence, i)
        if intent is not None:
            return intent
    return None


def _note(message: str, start: int, sentence: _Sentence) -> str:
    return message[start : sentence.end].strip().strip(",;:-–—").strip()


def _instruction(message: str, sentence: _Sentence, i: int) -> TeachingIntent | None:
    lists = _lists()
    ws = sentence.words
    for lang in LANGUAGES:
        note_at = _match_remember(ws, i, lang)
        if note_at is not None and note_at < len(ws):
            note = _note(message, ws[note_at].start, sentence)
            named = _subject(note, _scan(note))
            return TeachingIntent(
                note=note,
                kind=TeachingKind.REMEMBER,
                language=lang,
                claim=claim_of(note),
                subject=_join(named) if named else None,
            )
        n = _match(ws, i, lists.treat[lang])
        if n:
            treated = _treat_subject(message, ws[i + n :], lang)
            if treated:
                note = _note(message, ws[i].start, sentence)
                return TeachingIntent(
                    note=note,
                    kind=TeachingKind.TREAT,
                    language=lang,
                    claim=claim_of(note, TeachingKind.TREAT),
                    subject=_join(treated),
                )
    found = _verb_final_subject(message, ws, treat_only=True)
    if found:
        treated, lang = found
        note = _note(message, ws[i].start, sentence)
        return TeachingIntent(
            note=note,
            kind=TeachingKind.TREAT,
            language=lang,
            claim=claim_of(note, TeachingKind.TREAT),
            subject=_join(treated),
        )
    return None


def same_as(note: str) -> tuple[str, str] | None:
    """(X, Y) when a taught note says only that X and Y are one thing: "mitocondria is the same
    as mitochondria", "X es lo mismo que Y", "X sama dengan Y", "X اور Y ایک ہی ہیں", "X هو
    نفسه Y". Each side a name (articles dropped, at most ``MAX_CONCEPT_NAME_WORDS`` words, no
    punctuation inside): a note that says more is a note, not a naming."""
    words = _scan(note)
    folded = [w.folded for w in words]
    for lang, pack in PACKS.items():
        for phrase in _compile(pack.teaching_same_as):
            for i in range(1, len(words) - len(phrase)):
                if tuple(folded[i : i + len(phrase)]) == phrase:
                    pair = _two_names(note, words[:i], words[i + len(phrase) :], lang)
                    if pair is not None:
                        return pair
    # Verb-final: "X اور Y ایک ہی ہیں" (the joining word, then an ending).
    for lang, pack in PACKS.items():
        if not pack.same_as_joins:
            continue
        joins = _fold_set(pack.same_as_joins)
        for ending in _compile(pack.same_as_endings):
            n = len(ending)
            if len(words) > n + 2 and tuple(folded[-n:]) == ending:
                ands = [i for i, w in enumerate(folded[:-n]) if w in joins]
                if len(ands) == 1:
                    return _two_names(note, words[: ands[0]], words[ands[0] + 1 : -n], lang)
    return None


def _two_names(
    note: str, left: Sequence[_Word], right: Sequence[_Word], lang: str
) -> tuple[str, str] | None:
    articles = _lists().articles[lang]
    sides = []
    for side in (left, right):
        run = list(side)
        while run and run[0].folded in articles:
            run = run[1:]
        if not run or len(run) > C.MAX_CONCEPT_NAME_WORDS:
            return None
        if any(_breaks(note, a, b, _NAME_BREAKS) for a, b in pairwise(run)):
            return None
        sides.append(note[run[0].start : run[-1].end])
    return sides[0], sides[1]


# --- the claim a note makes ---------------------------------------------------------------------


def about_the_conversation(intent: TeachingIntent) -> bool:
    """Whether a "remember that" note is about the people talking rather than the subject: it
    names nothing (its claim is the note itself) and its first word, past a class frame ("in
    our class"), is one of its language's ``utterance_pronouns`` — "you promised to quiz me",
    "we have a test tomorrow", "it was hard for me", "تذكر أنك وعدتني …" — or, where the
    pronoun is dropped, with a verb whose ending says "you" or "we" (the language's
    ``conversation_verb_endings``: "recuerda que prometiste …"). Such a message is kept as
    what it is (the log remembers it); a concept "promised" with readiness 1.0 in every block
    would not be the subject."""
    if intent.kind is not TeachingKind.REMEMBER or intent.claim != intent.note:
        return False
    words = _scan(intent.note)
    frames = _lists().frames
    i = 0
    while i < len(words) and (n := _match(words, i, frames)):
        i += n
    if i >= len(words):
        return False
    first = words[i].folded
    return first in _pronouns(intent.language) or any(
        first.endswith(e) and len(first) > len(e) for e in _verb_endings(intent.language)
    )


@cache
def _pronouns(lang: str) -> frozenset[str]:
    return _fold_set(language(lang).utterance_pronouns)


@cache
def _verb_endings(lang: str) -> tuple[str, ...]:
    return tuple(fold(e) for e in language(lang).conversation_verb_endings)


def check_note_fits(claim: str) -> None:
    """A ``ValidationError`` naming the message's ``text`` when what it teaches is longer than
    a taught note may hold (``MAX_NOTE_CHARS``): an instruction followed by a pasted page."""
    if len(claim) > C.MAX_NOTE_CHARS:
        raise ValidationError(
            "text",
            f"teaches a note of {len(claim)} characters; a taught note holds at most "
            f"{C.MAX_NOTE_CHARS}: say what to remember in fewer words",
        )


def claim_of(note: str, kind: TeachingKind = TeachingKind.REMEMBER) -> str:
    """The note as it is stored: "X = Y" when it names or treats X as Y, else ``note`` itself.

    Recognised, in order (each in five languages, the packs' phrases):

    * TREAT: "treat X as Y" → "X = Y" (and the verb-final "X کو Y سمجھو").
    * "we call X Y", "we refer to X as Y" (``teaching_naming``), when nothing but "in our
      class", "so" … comes before it; "ہم X کو Y کہتے ہیں" (verb-final naming).
    * "X means Y", "X is called Y", "X is the same as Y" (``teaching_means``,
      ``teaching_same_as``), X a name of at most ``MAX_CONCEPT_NAME_WORDS`` words.
    * "X اور Y ایک ہی ہیں" (``same_as``: the verb-final same-as).

    X is written as the person wrote it, articles dropped ("the mitochondria" → mitochondria);
    Y keeps its words, articles included ("the powerhouse of the cell"), with a trailing "in our
    class" dropped. A note that matches none of these — "osmosis needs no energy" says
    something other than a name — is kept whole: the fallback is the trimmed sentence.
    """
    words = _scan(note)
    if not words:
        return note
    found = _treat_claim(note, words) if kind is TeachingKind.TREAT else None
    found = found or _naming_claim(note, words) or _means_claim(note, words) or same_as(note)
    if found is None:
        return note
    subject, said = found
    return f"{subject} = {said}"


def _said(text: str, start: int) -> str | None:
    """Y as written from ``start``, without a trailing "in our class" or punctuation."""
    said = text[start:].strip().strip(",;:-–—").strip()
    words = _scan(said)
    frames = _lists().frames
    for k in range(1, len(words)):
        n = _match(words, k, frames)
        if n and k + n == len(words):
            said = said[: words[k].start].strip().strip(",;:-–—").strip()
            break
    return said if _scan(said) else None


def _written(text: str, name: Sequence[_Word]) -> str:
    return text[name[0].start : name[-1].end]


def _treat_claim(text: str, words: Sequence[_Word]) -> tuple[str, str] | None:
    lists = _lists()
    for lang in LANGUAGES:
        n = _match(words, 0, lists.treat[lang])
        parts = _treat_parts(text, words[n:], lang) if n else None
        if parts:
            said = _said(text, parts[1])
            if said:
                return _written(text, parts[0]), said
    found = _verb_final_parts(text, words, treat_only=True)
    said = _said(found[2], 0) if found else None
    return (_written(text, found[0]), said) if found and said else None


def _after_frames(words: Sequence[_Word], lang: str) -> int:
    """The index after the leading words that say only where the note holds, or nothing: "in
    our class", "so", Arabic أننا ("that we")."""
    lists = _lists()
    k = 0
    while k < len(words):
        n = _match(words, k, lists.frames) or _match(words, k, lists.lead_ins)
        if not n and words[k].folded in lists.that_with_pronoun[lang]:
            n = 1
        if not n:
            break
        k += n
    return k


def _naming_claim(text: str, words: Sequence[_Word]) -> tuple[str, str] | None:
    lists = _lists()
    for k in range(len(words)):
        for lang in LANGUAGES:
            n = _match(words, k, lists.naming[lang])
            if not n or _after_frames(words[:k], lang) < k:
                continue
            after = words[k + n :]
            ends = lists.name_ends[lang] | lists.treat_as[lang]
            name = _trim_stopwords(_name_after(text, after, lang, ends), lang)
            if not name:
                continue
            rest = after[after.index(name[-1]) + 1 :]
            said_at = rest[0].end if rest and rest[0].folded in ends else name[-1].end
            said = _said(text, said_at)
            if said:
                return _written(text, name), said
    found = _verb_final_parts(text, words, treat_only=False)
    said = _said(found[2], 0) if found else None
    return (_written(text, found[0]), said) if found and said else None


def _means_claim(text: str, words: Sequence[_Word]) -> tuple[str, str] | None:
    lists = _lists()
    for lang in LANGUAGES:
        articles = lists.articles[lang]
        for phrase in lists.means[lang]:
            for i in range(1, len(words) - len(phrase)):
                if tuple(w.folded for w in words[i : i + len(phrase)]) != phrase:
                    continue
                left = words[:i]
                name = list(left[_after_frames(left, lang) :])
                while name and name[0].folded in articles:
                    name = name[1:]
                # "it means …", "this is called …": a pronoun is no name
                name = _trim_stopwords(name, lang)
                if not name or len(name) > C.MAX_CONCEPT_NAME_WORDS:
                    continue
                if any(_breaks(text, a, b, _NAME_BREAKS) for a, b in pairwise(name)):
                    continue
                after = words[i + len(phrase) :]
                said_at = words[i + len(phrase) - 1].end
                frame = _match(after, 0, lists.frames)
                if frame:
                    said_at = after[frame - 1].end
                said = _said(text, said_at)
                if said:
                    return _written(text, name), said
    return None


def route_taught(note: str, known: dict[str, str]) -> str | None:
    """The key of the known concept ``note`` names, or None (then a node is minted).

    Exact canonical names only (``known`` maps concept keys to names): a key counts when its
    words appear as whole words in ``concept_key(note)``. The rule, in order:

    1. When the phrasing names a subject ("treat X as", "we call X …"), only the subject is
       searched: "we call the mitochondria the powerhouse of the cell" goes to mitochondria,
       and "we call the Golgi body the post office of the cell" goes to no known concept (the
       Golgi body is what it teaches about) — not to "cell".
    2. Otherwise the whole note is searched, and the first-mentioned name wins; of names that
       start at the same word, the longest ("cell membrane" over "cell"). There are no ties
       left to refuse: two keys starting at the same word with the same length are one key.
    """
    words = _scan(note)
    subject = _subject(note, words)
    scope = concept_key(_join(subject)) if subject else concept_key(note)
    return _first_most_specific(scope.split(), known)


def _first_most_specific(words: list[str], known: Iterable[str]) -> str | None:
    best: tuple[int, int, str] | None = None
    for key in known:
        parts = key.split()
        if not parts:
            continue
        at = next(
            (k for k in range(len(words) - len(parts) + 1) if words[k : k + len(parts)] == parts),
            None,
        )
        if at is not None and (best is None or (at, -len(parts), key) < best):
            best = (at, -len(parts), key)
    return best[2] if best else None


def short_name(note: str, lang: str | None = None) -> str:
    """A name of at most four words for a node minted from ``note``, as the note writes it.

    The subject when the phrasing names one ("treat X as" → X; "we call the Golgi body the post
    office …" → "Golgi body"). Otherwise the first distinctive run of words: "in our class" and
    its equivalents skipped, articles and stopwords of the note's language (``lang``, detected
    when not given) dropped, ending at the next stopword or punctuation. A note made only of
    stopwords gets its first words. Never the whole sentence unless the note is that short.
    """
    words = _scan(note)
    if not words:
        raise ValidationError("note", "is empty; a taught note needs words")
    subject = _subject(note, words)
    if subject:
        return _join(subject)
    lang = lang or detect_language(note)
    run = _noun_phrase(note, _first_distinctive_run(note, words, lang), lang)
    return _join(run or words)


def _noun_phrase(text: str, run: list[_Word], lang: str) -> list[_Word]:
    """The noun phrase ``run`` opens with: cut before the first later word that reads as the
    verb (the pack's ``noun_phrase_*``; Arabic: the definite run)."""
    if len(run) < 2:
        return run
    pack = language(lang)
    if pack.definite_article:
        return _definite_run(text, run, lang)
    verb_endings = pack.noun_phrase_verb_endings
    noun_endings = pack.noun_phrase_noun_endings
    adjective_endings = pack.noun_phrase_adjective_endings  # empty: no adjective rule
    verb_prefixes = pack.noun_phrase_verb_prefixes
    for k, word in enumerate(run[1:], start=1):
        token = word.folded
        verb = (token.endswith(verb_endings) and not token.endswith(noun_endings)) or (
            len(token) >= 5 and token.startswith(verb_prefixes)
        )
        if verb or (adjective_endings and not token.endswith(adjective_endings)):
            return run[:k]
    return run


def _first_distinctive_run(text: str, words: Sequence[_Word], lang: str) -> list[_Word]:
    lists = _lists()
    i = _skip_lead_ins(words)
    for remember_lang in LANGUAGES:  # a whole message passed by mistake: skip its "remember that"
        after = _match_remember(words, i, remember_lang)
        if after is not None:
            i = after
            break
    run: list[_Word] = []
    while i < len(words):
        frame = _match(words, i, lists.frames)
        if frame or is_stopword(words[i].folded, lang):
            if run:
                if len(run) > 1 and words[i].folded in lists.genitives[lang]:
                    run.pop()  # the possessor of what is said, not part of the name
                break
            i += max(frame, 1)
            continue
        if run and _breaks(text, run[-1], words[i], _NAME_BREAKS):
            break
        run.append(words[i])
        i += 1
    return run
