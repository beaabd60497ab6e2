"""The offline extractor: a file's concepts read from its structure, with no model.

The embedded deployment's stand-in for the model pass (ARCHITECTURE: "file → concepts"). It
is deterministic: the same file always gives the same drafts. Its output goes through the
same validator as the model's.

What it finds:

- **Headings** are candidate concepts ("2.1 Osmosis"); the validator trims them and rejects
  the file's furniture ("Introduction", "Review questions", "Chapter 2: …"). The document's
  title (``FileText.title``) names the document, not a concept, and is skipped.
- **Definitional sentences** name a concept and give its gist (that sentence) and definition
  (that sentence and the next): "Osmosis is …", "An organelle is a …", "La ósmosis es …",
  "Sel adalah …" / "… merupakan …", "الخلية هي …", and in Urdu "X ایک … ہے" or "X سے مراد
  … ہے". A name not among the headings needs a strong form: in English and Spanish the
  predicate must open with an article ("X is a/the …"); Indonesian adalah/merupakan and
  Arabic هو/هي only ever define. A heading's own name needs only "X is/are …" ("Ribosomes
  are tiny structures …"); in Urdu, a sentence that opens with a heading's name and ends in
  ہے/ہیں. Negated or hedged predicates ("is not", "is also") define nothing.
- **Builds-on**: a concept *owns* its section's sentences, and the rest of a paragraph that
  defines another concept belongs to that one. A concept builds on the file's other concepts
  that its sentences mention (exact canonical key, longest name first) and that the file
  explained *before* it: textbooks explain prerequisites first, and a forward mention ("we
  will meet mitochondria later") is not a prerequisite. This also keeps the edges acyclic.
- **Explicit prerequisites**: "builds on X", "requires X", "recall that X", "assumes X" (and
  the word lists' equivalents in es, id, ur, ar) name X as a builds-on even if the file never
  explains X: that is how an assumed prerequisite arises. X is the file's concept named there,
  else the run of words up to a function word or punctuation.
- **Glossaries**: a table whose header names a term column and a definition column ("Term |
  Definition", "Término | Definición", "اصطلاح | تعریف", …: ``Language.glossary_*_columns``),
  or any table of two or more columns — and any "term: definition" line — in a section
  headed as a glossary (``Language.glossary_headings``; for a file with no headings, its
  title: a CSV file named "glossary.csv"). Each row defines its term: the definition is the
  cell, the gist its first sentence, and the row's sentences are the term's own (so its
  mentions give builds-on as anywhere else). Table rows are "| a | b |" lines: Markdown's own,
  and how the readers write a DOCX table's rows and a CSV file's.
- **Pages**: the pages of the sentences a concept owns (and its heading's page).

What it cannot find (it is no model): synonyms and inflections ("cells" is not "Cell",
"mitochondrion" is not "Mitochondria", "ósmosis" is "osmosis" only because folding drops the
accent); concepts that are never a heading nor defined in one of the forms above; a
definition spread over sentences that do not name the concept; prerequisites implied but not
stated; the meaning of a heading ("Moving substances" is kept as a concept if the validator
does not know it as furniture). A long "recall that …" clause gives only its first words as
the prerequisite's name.

At most ``MAX_CONCEPTS_PER_FILE`` concepts, the first explained first. Names the validator
will reject as furniture are passed on (so the ingest can say what it refused) but do not
count against the bound, and are bounded the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import cast

from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import ConceptDraft
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.filetext import FileText, Page, Section
from tutor_memory.domain.language import detect_language, fold, is_stopword
from tutor_memory.domain.languages import LANGUAGES, language
from tutor_memory.domain.validator import clean_name, rejection_reason

# A word with its Arabic-script marks and joiners (which are not \w), so spans stay whole.
_TOKEN = re.compile(
    r"(?:[^\W_]|[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u200c\u200d])+"
)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?؟])\s+(?=[^a-z\s])|(?<=۔)\s*")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*+•]|\d+[.)])\s)")
_LIST_MARKER = re.compile(r"^(?:[-*+•]|\d+[.)])\s+")
_CLAUSE_PUNCTUATION = re.compile(r"[,;:.!?()\[\]\"“”«»،؛؟۔—–]")
# "Osmosis (ósmosis)", "Osmosis (ósmosis; اوسموسس)": a name with its other names in brackets,
# within the first words of a heading or a sentence.
_BRACKETED = re.compile(r"^([^()\n]{1,80}?)\s*[(（]([^()\n]{1,120})[)）]")
_ALIAS_SEPARATORS = re.compile(r"\s*[;,/،؛]\s*")
_TABLE_RULE = re.compile(r"^:?-{3,}:?$")  # a Markdown table's header rule cell
# "Osmosis: the movement …", "Osmosis — the movement …" (a glossary section's line).
_GLOSSARY_LINE = re.compile(r"^(?:[-*+•]\s+)?([^:|\n]{1,80}?)\s*(?::|\s[–—-]\s)\s*(\S.*)$")


@dataclass(frozen=True)
class _Token:
    raw: str
    folded: str
    start: int
    end: int


@dataclass(frozen=True)
class _Sentence:
    text: str
    page: int
    lang: str
    tokens: tuple[_Token, ...]


@dataclass
class _Candidate:
    name: str
    order: int
    pages: set[int] = field(default_factory=set)
    gist: str = ""
    definition: str = ""
    first_owned: list[str] = field(default_factory=list)  # a fallback gist and definition
    builds_on: dict[str, str] = field(default_factory=dict)  # key -> name, in order
    aliases: list[str] = field(default_factory=list)  # other names the file gives it


class OfflineExtractor:
    """Concepts from headings, definitional sentences, mentions and prerequisite phrases."""

    def extract(self, name: str, text: FileText) -> list[ConceptDraft]:
        """``name`` is the upload's name; ``text`` what the reader made of it."""
        return _Reading(text).drafts()


def _tokens(text: str) -> tuple[_Token, ...]:
    return tuple(
        _Token(m.group(), fold(m.group()), m.start(), m.end()) for m in _TOKEN.finditer(text)
    )


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(t.folded for t in _tokens(text))


@cache
def _folded(field: str, lang: str) -> frozenset[str]:
    """A set of words of ``lang``'s pack, folded."""
    return frozenset(fold(w) for w in cast(frozenset[str], getattr(language(lang), field)))


@cache
def _phrases(field: str, lang: str) -> tuple[tuple[str, ...], ...]:
    """Phrases of ``lang``'s pack, as folded words, longest first."""
    phrases = cast(tuple[str, ...], getattr(language(lang), field))
    return tuple(sorted((_phrase(p) for p in phrases), key=len, reverse=True))


@cache
def _any_language(table: str) -> frozenset[tuple[str, ...]]:
    """A pack field's phrases, folded, in every language at once (headers are too short to
    detect their language)."""
    return frozenset(_phrase(p) for pack in LANGUAGES.values() for p in getattr(pack, table))


def _is_glossary(title: str | None) -> bool:
    return bool(title) and _phrase(clean_name(title or "")) in _any_language("glossary_headings")


def _cells(line: str) -> list[str] | None:
    """A table row's cells ("| Osmosis | The movement … |"), or None for any other line."""
    stripped = line.strip()
    if "|" not in stripped:
        return None
    cells = [c.strip() for c in stripped.removeprefix("|").removesuffix("|").split("|")]
    return cells if len(cells) >= 2 else None


def _columns(header: Sequence[str]) -> tuple[int, int] | None:
    """(term column, definition column) of a glossary table's header row, or None."""
    names = [_phrase(cell) for cell in header]
    terms = [i for i, n in enumerate(names) if n in _any_language("glossary_term_columns")]
    defs = [i for i, n in enumerate(names) if n in _any_language("glossary_definition_columns")]
    return (terms[0], defs[0]) if terms and defs and terms[0] != defs[0] else None


@cache
def _definition_markers(lang: str) -> tuple[tuple[str, ...], ...]:
    return tuple(_phrase(m) for m in language(lang).definition_markers)


def _as_name(text: str) -> str:
    """A name cut from a sentence: "cell membrane" becomes "Cell membrane"."""
    return text[:1].upper() + text[1:] if text.islower() else text


def _paragraphs(section: Section) -> Iterator[tuple[int, str]]:
    """(page, paragraph as one line) of a section's body, in order."""
    for part in section.parts:
        for block in _PARAGRAPH_BREAK.split(part.text):
            lines = [line.strip() for line in block.split("\n") if line.strip()]
            joined = ""
            for line in lines:
                # a line that ends in a hyphen continues its word on the next line
                joined += line if joined.endswith("-") or not joined else " " + line
            joined = _LIST_MARKER.sub("", joined)  # "1. What …" is one sentence, not two
            if joined:
                yield part.number, joined


class _Reading:
    """One pass over one file."""

    def __init__(self, text: FileText) -> None:
        self.text = text
        self.title_key = concept_key(clean_name(text.title)) if text.title else ""
        self.candidates: dict[str, _Candidate] = {}
        self.owned: list[tuple[_Sentence, str | None]] = []
        self.position = 0
        self.keys: set[tuple[str, ...]] = set()
        self.lengths: list[int] = []

    # --- pass 1: candidates, owners, definitions ----------------------------------------------

    def _register(self, name: str, page: int, aliases: Sequence[str] = ()) -> str:
        name, bracketed = _split_bracketed(name)
        key = concept_key(clean_name(name))
        if key and key not in self.candidates:
            self.candidates[key] = _Candidate(name=name, order=self.position)
        if key:
            self.candidates[key].pages.add(page)
            self._alias(key, [*bracketed, *aliases])
        return key

    def _alias(self, key: str, names: Sequence[str]) -> None:
        found = self.candidates.get(key)
        if found is not None:
            found.aliases += [n for n in names if n.strip() and n not in found.aliases]

    def _heading_key(self, section: Section) -> str | None:
        if section.level == 0 or not section.title:
            return None
        key = concept_key(clean_name(_split_bracketed(section.title)[0]))
        return key if key and key != self.title_key else None

    def drafts(self) -> list[ConceptDraft]:
        headings = {k for s in self.text.sections if (k := self._heading_key(s)) is not None}
        for whole in self.text.sections:
            lang = detect_language(f"{whole.title}\n{whole.text}")
            heading = self._heading_key(whole)
            if heading is not None:
                self.position += 1
                self._register(whole.title, whole.page)
            glossary = _is_glossary(whole.title if whole.title else self.text.title)
            section = self._glossary(whole, glossary=glossary)
            for page, paragraph in _paragraphs(section):
                owner = heading
                sentences = [
                    _Sentence(raw.strip(), page, lang, _tokens(raw.strip()))
                    for raw in _SENTENCE_BREAK.split(paragraph)
                    if raw.strip()
                ]
                # "Osmosis (ósmosis) is …" defines Osmosis and names it in Spanish too.
                bare = [_without_brackets(s) for s in sentences]
                defines = [_defined_name(s, headings) for s, _ in bare]
                for i, sentence in enumerate(sentences):
                    self.position += 1
                    if (defined := defines[i]) is not None:
                        key = self._register(defined, page, bare[i][1])
                        found = self.candidates.get(key)
                        if found is not None and not found.gist:
                            found.gist = found.definition = sentence.text
                            # the next sentence too, unless it defines something else
                            if i + 1 < len(sentences) and defines[i + 1] is None:
                                found.definition += " " + sentences[i + 1].text
                        owner = key or owner
                    self.owned.append((sentence, owner))
                    if owner is not None:
                        found = self.candidates[owner]
                        found.pages.add(page)
                        if len(found.first_owned) < 2:
                            found.first_owned.append(sentence.text)
        # --- pass 2: what each concept builds on ----------------------------------------------
        self._index()
        for sentence, owner in self.owned:
            if owner is not None:
                self._mentions(sentence, owner)
                self._prerequisites(sentence, owner)
                self._also_called(sentence, owner)
        return self._bounded()

    def _glossary(self, section: Section, *, glossary: bool) -> Section:
        """Define the terms of the section's glossary rows (see the module), and return the
        section without those lines (its other text is read as usual)."""
        parts = []
        for part in section.parts:
            lines = part.text.split("\n")
            used: set[int] = set()
            table: list[tuple[int, list[str]]] = []
            for i, line in enumerate([*lines, ""]):
                cells = _cells(line) if i < len(lines) else None
                if cells is not None:
                    table.append((i, cells))
                elif line.strip() or i == len(lines):  # a blank line may separate DOCX rows
                    used |= self._glossary_table(table, part.number, glossary=glossary)
                    table = []
                    m = _GLOSSARY_LINE.match(line.strip()) if glossary else None
                    if m and len(_tokens(m.group(1))) <= C.MAX_CONCEPT_NAME_WORDS:
                        self._define(m.group(1), m.group(2), part.number)
                        used.add(i)
            kept = "\n".join(line for i, line in enumerate(lines) if i not in used)
            parts.append(Page(part.number, kept))
        return replace(section, parts=tuple(parts))

    def _glossary_table(
        self, table: list[tuple[int, list[str]]], page: int, *, glossary: bool
    ) -> set[int]:
        """The line numbers of a glossary table's rows, each row's term defined; none when the
        table is not a glossary."""
        rows = [(i, c) for i, c in table if not all(_TABLE_RULE.match(x) for x in c if x)]
        if not rows:
            return set()
        columns = _columns(rows[0][1])
        if columns is not None:
            rows = rows[1:]
        elif glossary:
            columns = (0, 1)
        else:
            return set()
        term, definition = columns
        for _, cells in rows:
            if len(cells) > max(term, definition) and cells[term] and cells[definition]:
                self._define(cells[term], cells[definition], page)
        return {i for i, _ in table}

    def _define(self, term: str, definition: str, page: int) -> None:
        """One glossary row: the term is a concept, the definition its own."""
        self.position += 1
        key = self._register(term, page)
        found = self.candidates.get(key)
        if found is None:
            return
        lang = detect_language(definition)
        sentences = [s.strip() for s in _SENTENCE_BREAK.split(definition) if s.strip()]
        if not found.gist and sentences:
            found.gist, found.definition = sentences[0], " ".join(sentences)
        for text in sentences:
            self.position += 1
            self.owned.append((_Sentence(text, page, lang, _tokens(text)), key))

    # --- pass 2 helpers ----------------------------------------------------------------------

    def _index(self) -> None:
        """Candidate keys as word tuples (the names are all known now), and their lengths."""
        self.keys = {tuple(key.split(" ")) for key in self.candidates}
        self.lengths = sorted({len(k) for k in self.keys}, reverse=True)

    def _known_at(self, words: Sequence[str], i: int) -> tuple[str, ...] | None:
        """The longest candidate key that starts at ``words[i]``."""
        for n in self.lengths:
            if tuple(words[i : i + n]) in self.keys:
                return tuple(words[i : i + n])
        return None

    def _known_ending_at(self, words: Sequence[str], end: int) -> tuple[str, ...] | None:
        """The longest candidate key that ends just before ``words[end]``."""
        for n in self.lengths:
            if n <= end and tuple(words[end - n : end]) in self.keys:
                return tuple(words[end - n : end])
        return None

    def _mentions(self, sentence: _Sentence, owner: str) -> None:
        words = concept_key(sentence.text).split(" ")
        mine = self.candidates[owner]
        i = 0
        while i < len(words):
            key = self._known_at(words, i) if words[i] else None
            if key is None:
                i += 1
                continue
            joined = " ".join(key)
            other = self.candidates[joined]
            if joined != owner and other.order < mine.order:
                mine.builds_on.setdefault(joined, other.name)
            i += len(key)

    def _prerequisites(self, sentence: _Sentence, owner: str) -> None:
        folded = [t.folded for t in sentence.tokens]
        for phrase in _phrases("prerequisite_phrases", sentence.lang):
            for start in _find(folded, phrase):
                self._assume(owner, self._name_after(sentence, start + len(phrase)))
        for phrase in _phrases("prerequisite_phrases_after_name", sentence.lang):
            for start in _find(folded, phrase):
                self._assume(owner, self._name_before(sentence, start))

    def _also_called(self, sentence: _Sentence, owner: str) -> None:
        """ "X is also called Y" (in five languages) gives the sentence's concept another name:
        X when X is the file's concept, else the concept that owns the sentence."""
        folded = [t.folded for t in sentence.tokens]
        found: list[tuple[int, str | None]] = []
        for phrase in _phrases("alias_phrases", sentence.lang):
            for start in _find(folded, phrase):
                found.append((start, self._name_after(sentence, start + len(phrase))))
        for phrase in _phrases("alias_phrases_after_name", sentence.lang):
            for start in _find(folded, phrase):
                found.append((start, self._name_before(sentence, start)))
        for start, alias in found:
            opening = self._known_at(folded, 0) if folded and start > 0 else None
            target = " ".join(opening) if opening else owner
            if alias and concept_key(alias) != target:
                self._alias(target, [alias])

    def _assume(self, owner: str, name: str | None) -> None:
        if name is None:
            return
        key = concept_key(clean_name(name))
        if key and key != owner:
            known = self.candidates.get(key)
            self.candidates[owner].builds_on.setdefault(key, known.name if known else name)

    def _name_after(self, sentence: _Sentence, start: int) -> str | None:
        tokens = sentence.tokens
        articles = _folded("leading_articles", sentence.lang)
        while start < len(tokens) and tokens[start].folded in articles:
            start += 1
        if start >= len(tokens):
            return None
        words = [t.folded for t in tokens]
        known = self._known_at(words, start)
        if known is not None:
            return sentence.text[tokens[start].start : tokens[start + len(known) - 1].end]
        run = self._run(sentence, range(start, len(tokens)))
        if not run:
            return None
        return _as_name(sentence.text[tokens[run[0]].start : tokens[run[-1]].end])

    def _name_before(self, sentence: _Sentence, end: int) -> str | None:
        tokens = sentence.tokens
        words = [t.folded for t in tokens]
        known = self._known_ending_at(words, end)
        if known is not None:
            return sentence.text[tokens[end - len(known)].start : tokens[end - 1].end]
        run = sorted(self._run(sentence, range(end - 1, -1, -1)))
        # The sentence's subject usually opens it ("اوسموسس پھیلاؤ پر مبنی ہے"): not X.
        while run and (subject := self._known_at(words, run[0])) is not None:
            run = [i for i in run if i >= run[0] + len(subject)]
        if not run:
            return None
        return sentence.text[tokens[run[0]].start : tokens[run[-1]].end]

    def _run(self, sentence: _Sentence, indexes: range) -> list[int]:
        """Token indexes, walked from the phrase outwards, up to a function word, a copula,
        punctuation, or the longest a name may be."""
        tokens = sentence.tokens
        copulas = _folded("copulas", sentence.lang)
        run: list[int] = []
        for i in indexes:
            token = tokens[i]
            if is_stopword(token.folded, sentence.lang) or token.folded in copulas:
                break
            if run:
                a, b = sorted((run[-1], i))
                if _CLAUSE_PUNCTUATION.search(sentence.text[tokens[a].end : tokens[b].start]):
                    break
            run.append(i)
            if len(run) == C.MAX_CONCEPT_NAME_WORDS:
                break
        return run

    # --- output --------------------------------------------------------------------------------

    def _bounded(self) -> list[ConceptDraft]:
        drafts: list[ConceptDraft] = []
        concepts = furniture = 0
        for candidate in sorted(self.candidates.values(), key=lambda c: c.order):
            if rejection_reason(candidate.name) is None:
                if concepts == C.MAX_CONCEPTS_PER_FILE:
                    continue
                concepts += 1
            else:
                if furniture == C.MAX_CONCEPTS_PER_FILE:
                    continue
                furniture += 1
            gist = candidate.gist or (candidate.first_owned[0] if candidate.first_owned else "")
            drafts.append(
                ConceptDraft(
                    name=candidate.name,
                    gist=gist,
                    definition=candidate.definition or " ".join(candidate.first_owned),
                    builds_on=tuple(candidate.builds_on.values()),
                    pages=tuple(sorted(candidate.pages)),
                    aliases=tuple(candidate.aliases),
                )
            )
        return drafts


def _split_bracketed(name: str) -> tuple[str, list[str]]:
    """("Osmosis", ["ósmosis"]) of "Osmosis (ósmosis)"; a name without brackets unchanged."""
    m = _BRACKETED.match(name.strip())
    if m is None or len(_tokens(m.group(1))) > C.MAX_CONCEPT_NAME_WORDS:
        return name, []
    rest = name.strip()[m.end() :].strip()
    if rest and len(_tokens(rest)) > 0 and not rest.startswith(":"):
        return name, []  # brackets in the middle of a longer name: not an alias list
    names = [n for n in _ALIAS_SEPARATORS.split(m.group(2)) if n.strip()]
    short = all(0 < len(_tokens(n)) <= C.MAX_CONCEPT_NAME_WORDS for n in names)
    return (m.group(1).strip(), names) if names and short else (name, [])


def _without_brackets(sentence: _Sentence) -> tuple[_Sentence, list[str]]:
    """The sentence with a bracket after its opening name removed, and what it held."""
    m = _BRACKETED.match(sentence.text)
    if m is None or len(_tokens(m.group(1))) > C.MAX_CONCEPT_NAME_WORDS + 1:
        return sentence, []
    names = [n for n in _ALIAS_SEPARATORS.split(m.group(2)) if n.strip()]
    if not names or any(len(_tokens(n)) > C.MAX_CONCEPT_NAME_WORDS for n in names):
        return sentence, []
    text = f"{m.group(1).strip()} {sentence.text[m.end() :].strip()}"
    return _Sentence(text, sentence.page, sentence.lang, _tokens(text)), names


def _find(words: Sequence[str], phrase: tuple[str, ...]) -> Iterator[int]:
    n = len(phrase)
    for i in range(len(words) - n + 1):
        if tuple(words[i : i + n]) == phrase:
            yield i


def _defined_name(sentence: _Sentence, headings: set[str]) -> str | None:
    """The name a definitional sentence defines, as written, or None."""
    if language(sentence.lang).copula_last:
        return _copula_last_defined_name(sentence, headings)
    tokens, lang = sentence.tokens, sentence.lang
    copulas = _folded("copulas", lang)
    articles = _folded("leading_articles", lang)
    limit = min(len(tokens) - 2, C.MAX_CONCEPT_NAME_WORDS + 1)  # + 1: a leading article
    at = next((i for i in range(1, limit + 1) if tokens[i].folded in copulas), None)
    if at is None:
        return None
    subject = list(tokens[:at])
    if subject[0].folded in articles:
        subject = subject[1:]
    predicate = tokens[at + 1 :]
    if not subject or len(predicate) < 2:
        return None
    if predicate[0].folded in _folded("non_defining_starts", lang):
        return None
    if _CLAUSE_PUNCTUATION.search(sentence.text[subject[0].start : tokens[at].start]):
        return None  # "In plants, water is …": the subject is not a name
    if is_stopword(subject[0].folded, lang) or is_stopword(subject[-1].folded, lang):
        return None  # "It is …", "This process is …", "Each of them is …"
    name = sentence.text[subject[0].start : subject[-1].end]
    known = concept_key(name) in headings
    # In languages with articles, a new name needs "X is a/the …"; a heading needs less.
    if not known and articles and predicate[0].folded not in articles:
        return None
    return _as_name(name)


def _copula_last_defined_name(sentence: _Sentence, headings: set[str]) -> str | None:
    """The name a definition defines in a language whose copula comes last (Urdu: "X ایک …
    ہے"): the words before the first definition marker."""
    tokens, lang = sentence.tokens, sentence.lang
    words = [t.folded for t in tokens]
    if len(words) < 3 or words[-1] not in _folded("copulas", lang):
        return None
    if words[-2] in _folded("non_defining_starts", lang):
        return None  # "… نہیں ہے"
    found = [i for marker in _definition_markers(lang) for i in _find(words, marker)]
    at = min(found, default=None)  # the first marker ends the name
    # A name neither opens nor ends with a function word ("مائٹوکونڈریا خلیے کے ایک …").
    if (
        at is not None
        and 1 <= at <= C.MAX_CONCEPT_NAME_WORDS
        and not is_stopword(words[0], lang)
        and not is_stopword(words[at - 1], lang)
    ):
        return sentence.text[tokens[0].start : tokens[at - 1].end]
    # "خلیہ زندگی کی اکائی ہے": a heading's name opening a sentence that ends in ہے.
    for n in range(min(len(words) - 2, C.MAX_CONCEPT_NAME_WORDS), 0, -1):
        if " ".join(words[:n]) in headings:
            return sentence.text[tokens[0].start : tokens[n - 1].end]
    return None
