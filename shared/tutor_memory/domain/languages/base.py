"""The ``Language`` type: everything the analyser, the time reader, teaching, the file reader
and the record rule know about one language, in one frozen object (one module a language).

Every list is written as people type it (accents, hamzas, Urdu letters); the code that reads
a list folds each entry with the same ``fold`` it applies to text, so spelling variants match.
Changing a stopword list or an exception changes the terms an episode is indexed by: re-index.

A field marked ``optional`` is a grammar hook: empty (``frozenset()``, ``()``, ``{}``, ``""``
or ``False``) means "this language has no such thing", and the rule that reads it does
nothing for it (only Urdu is verb-final, only Arabic writes its article into the word). Every
other field must hold words in every language (``tests/unit/test_languages.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

Script = Literal["latin", "arabic"]

_OPTIONAL: Final = {"optional": True}


def words(text: str) -> frozenset[str]:
    """A list written one or more words a line, space separated, for compactness."""
    return frozenset(text.split())


def phrases(text: str) -> tuple[str, ...]:
    """A list of phrases, comma separated (a phrase may have spaces)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


# Snowball stemmer objects keep state between calls, so each thread gets its own.
_local = threading.local()


def snowball(algorithm: str) -> Callable[[str], str]:
    """A stemmer hook for one of Snowball's algorithms ("english", "spanish", …)."""

    def stem(token: str) -> str:
        stemmers: dict[str, Any] | None = getattr(_local, "stemmers", None)
        if stemmers is None:
            stemmers = {}
            _local.stemmers = stemmers
        stemmer = stemmers.get(algorithm)
        if stemmer is None:
            # imported on first use: the package loads all its ~30 stemmers (~20 ms of cold
            # start)
            import snowballstemmer

            stemmer = snowballstemmer.stemmer(algorithm)
            stemmers[algorithm] = stemmer
        return str(stemmer.stemWord(token))

    return stem


def is_optional(name: str) -> bool:
    """Whether a field of ``Language`` is a grammar hook a language may leave empty."""
    return bool(Language.__dataclass_fields__[name].metadata.get("optional"))


# eq=False: a pack is one object, compared and hashed by identity (its dict fields would make
# a field-wise hash fail).
@dataclass(frozen=True, eq=False)
class Language:
    """One language. No field has a default: a pack names every one (see ``__init__``)."""

    code: str  # ISO 639-1, as texts, episodes and the API carry it
    name: str  # in English
    script: Script
    # Wins a tie in language detection among the languages of its script (en for Latin, ar
    # for Arabic script).
    script_default: bool = field(metadata=_OPTIONAL)
    # Where the stopword list comes from (the published list's address and licence, or ours).
    stopword_source: str
    # The stem of a folded token (not empty, not digits).
    stem: Callable[[str], str]

    # --- Stopwords and the analyser -------------------------------------------------------------
    # Function words only: articles, pronouns, auxiliaries, prepositions, conjunctions, question
    # words. A stopword is dropped from every stored episode and every question, so a content
    # word on the list can never be found again: "research", "work", "home", and short tokens
    # such as "ph" and "er" were lost that way to the Stopwords ISO lists used before (issue
    # 13). These lists are short on purpose; a word frequent in one pair ("cell", a speaker's
    # name) is the recall gate's business, not the analyser's. Units, symbols and
    # abbreviations (pH, ER, DNA, ATP, mol, CO2, H2O) are never listed. Folding loses case, so
    # a symbol that is also a function word ("NO", "He", "As", "In") cannot be told from it
    # and goes with it. The published lists are copied as data (no package ships them
    # offline; the ``stopwordsiso`` and ``stop-words`` packages ship long web-derived lists
    # with content words in them); ``stopword_source`` says which.
    stopwords: frozenset[str]
    # Function words the published list lacks, ours: question words, pronouns, auxiliaries
    # and prepositions of how a student types, each a plain function word of its language.
    stopword_additions: frozenset[str] = field(metadata=_OPTIONAL)
    # Words of a published list that a student asks about, kept. None are needed with the
    # lists above (their content words were the reason to leave Stopwords ISO); the slot stays
    # so that a word found later is kept here, with its reason, rather than edited out of a
    # copied list.
    stopword_exceptions: frozenset[str] = field(metadata=_OPTIONAL)
    # Asking words: how a question asks, not what it is about ("explain", "what is the
    # difference between …", "what did we cover in July?"). Dropped like stopwords, so that
    # "explain osmosis" looks for osmosis only. Inflected forms are listed because stopwords
    # are matched before stemming. Ours.
    asking_words: frozenset[str]
    # A conjunction or preposition glued to a stopword is still one (Arabic وهذا, بهذا, ولكن).
    # Only for stopwords of three letters or more: لحم (meat) is not ل + حم.
    stopword_proclitics: frozenset[str] = field(metadata=_OPTIONAL)

    # --- Language detection (ours) --------------------------------------------------------------
    # Frequent function words that belong to this language only among those of its script. The
    # full stopword lists cannot be used for this: the English one contains "que", "la", "es"
    # and "de".
    detection_markers: frozenset[str]
    # Letters this language writes and the others of its script do not: one of them settles
    # the script question (Urdu ٹ ڈ ڑ ں ے ہ ھ ۓ).
    own_letters: frozenset[str] = field(metadata=_OPTIONAL)
    # Function words of this language as its speakers also write it in Latin letters (Roman
    # Urdu: "mujhe samajh nahi aaya"). A Latin-script text with more of them than any Latin
    # language's markers is this language. Words another of our languages writes are left out
    # (Indonesian "hai", hi, "main", play, "agar", so that, "gaya", style, "wali", guardian;
    # English "main"), so a tie, and any line of theirs, stays theirs.
    latin_markers: frozenset[str] = field(metadata=_OPTIONAL)
    # Characters that give a text one vote: keyboard evidence (Urdu keyboards type keheh ک and
    # Farsi yeh ی, Arabic ones kaf ك, yeh ي, alef maksura ى and teh marbuta ة; Urdu writes ہ or
    # ۃ) or marks the others of its script never use (Spanish ¿ ¡ ñ and accents).
    vote_letters: frozenset[str] = field(metadata=_OPTIONAL)

    # --- Time: relative phrases and month names (ours; month names come from CLDR) --------------
    # Kinds: today, yesterday, day_before_yesterday, this_week, last_week, this_month,
    # last_month, and counted back: days_ago_3, weeks_ago_2, weeks_ago_3, months_ago_2,
    # months_ago_3 ("two weeks ago": the calendar week two before this one; "a week ago" is
    # last_week, "two days ago" day_before_yesterday, "a month ago" last_month). Phrases are
    # matched as whole words after folding, longest first, so "minggu kemarin" (last week) wins
    # over "kemarin" (yesterday) and "anteayer" never reads as "ayer".
    relative_phrases: Mapping[str, tuple[str, ...]]
    # Phrases that contain a time word but name no time: "hoy en día" (nowadays), "آج کل"
    # (these days), or not the time they seem to ("the last week of July" is July). Matched
    # first and skipped, in every language.
    not_a_time: tuple[str, ...] = field(metadata=_OPTIONAL)
    # Counts that make a relative phrase a distance back, not the last one: Indonesian "dua
    # minggu lalu" is two weeks ago, not last week ("minggu lalu"); a digit counts too where
    # the list is not empty. Such a phrase names no window (no language's "N weeks ago" does).
    counts_before_relative: frozenset[str] = field(metadata=_OPTIONAL)
    # Day words that point both ways in time: Urdu کل is both yesterday and tomorrow, پرسوں both
    # the day before yesterday and the day after tomorrow. A memory question asks about the
    # past, so the past reading wins, unless the sentence carries a future-tense marker
    # (``future_markers``) and no past one (``past_markers``: "کل ہم نے جو پڑھا تھا وہ امتحان
    # میں آئے گا؟" is about yesterday). The future reading names no memory, so it gives no
    # window. Only read in text of this language: Arabic كل means "all". A past marker also
    # keeps a plan's day from being read ("my test was on Friday" is not next Friday;
    # ``domain/plandates.py``).
    both_ways_days: frozenset[str] = field(metadata=_OPTIONAL)
    future_markers: frozenset[str] = field(metadata=_OPTIONAL)
    past_markers: frozenset[str] = field(metadata=_OPTIONAL)
    # A both-ways day word before these means "total" (کل رقبہ = total area), not a day.
    total_nouns: frozenset[str] = field(metadata=_OPTIONAL)
    # The word for "today" is not today when one of these governs it: Arabic اليوم is "today"
    # unless a preposition or quantifier governs it ("في اليوم" = per day, "كل اليوم" = all
    # day, "حتى اليوم" = until now) or a definite word follows it ("اليوم الأول" = the first
    # day; see ``definite_article``).
    today_blockers: frozenset[str] = field(metadata=_OPTIONAL)
    # The CLDR locales whose month names students use: Peruvian/Uruguayan "setiembre", and
    # the Levantine/Iraqi calendar (كانون الثاني, شباط, آذار, … تموز, آب, أيلول).
    month_locales: tuple[str, ...]
    # Month words that are also ordinary words: they count only with a temporal cue (a year
    # or a day number next to them, or one of ``month_cues_before`` / ``month_cues_after``).
    # "may I ask", "we march on", "The March of Progress" stay plain words; "in May", "Ides of
    # March" are dates. مارس is also "he practised"; آب folds to اب, which is also أب (father).
    ambiguous_month_words: frozenset[str] = field(metadata=_OPTIONAL)
    # Month words that are months in text of this language only: آب also folds to Urdu اب
    # ("now"), so it is a month in Arabic text only.
    own_month_words: frozenset[str] = field(metadata=_OPTIONAL)
    # Abbreviations ("Mar", "ago", "jun") are common words somewhere ("mar" = sea, "ago"), so
    # they count only next to a day number or a year: "Aug 2025", "12 ago 2025". Listed here:
    # never a month ("set", Peruvian setiembre: "set 2" is an exercise, "set theory" a topic).
    excluded_month_words: frozenset[str] = field(metadata=_OPTIONAL)
    # A word right before an ambiguous month word that makes it a date ("in May", "last
    # March", "في مارس", "شهر آب"). Absent on purpose: "this", "early", "late", "through"
    # ("this may help", "arriving late may …") and "de" ("agua de mar" is sea water).
    month_cues_before: frozenset[str]
    # A word right after one: Urdu postpositions ("مارچ میں") and Arabic "مارس الماضي" (last
    # March).
    month_cues_after: frozenset[str] = field(metadata=_OPTIONAL)
    # Words that put a named month in the past or the future. "last July" asked in July means
    # a year ago; "next May" names no memory and gives no window.
    last_words: frozenset[str]
    next_words: frozenset[str]
    # Words allowed between a month and its year: "julio de 2025", "July of 2025", "Juli tahun
    # 2025", "يوليو عام 2025".
    year_connectors: frozenset[str]

    # --- Time: does a question ASK ABOUT a time? (SPEC §3; ours) --------------------------------
    # A time phrase is a filter only in a clause that asks about the lessons ("what did we
    # cover in July?"), never in a statement or a story ("I have a test today, can you explain
    # osmosis?"). ``timewords`` documents the rule; these are its cue words, each entry one
    # phrase (whole folded words; a phrase of several words must match in order; a single
    # Latin letter is not a word, so "did I do" matches "did … do" with the "I" dropped).
    # Roles, each a tuple of phrases:
    # - fillers: skipped at a clause's start ("so", "hey", "pues", "kak", "اچھا", "يا").
    # - openers: open an asking clause: question words, an inverted auxiliary, a request verb.
    # - weak_openers: open an asking clause only in a sentence that ends in "?" (Arabic ما is
    #   also "not": "ما فهمت الدرس" is "I did not understand the lesson").
    # - anywhere: make a clause ask wherever they stand: Urdu's in-place question words, and
    #   recall requests ("remind me", "I forgot", "no me acuerdo", "یاد نہیں", "لا أتذكر").
    # - ellipsis: the words of an elliptical follow-up besides its time ("and last month?",
    #   "¿y el mes pasado?", "kalau bulan lalu?", "اور پچھلے مہینے؟", "والشهر الماضي؟").
    # - recall: the clause is about the shared record: "we" + a past study verb, a recall
    #   request, a record noun (lesson, topics, mistakes). Counts in any asking clause.
    # - study: a study verb in a past or tenseless form, any person ("studied", "aprendí",
    #   "pelajari", "پڑھا", "درست"). Counts unless the clause is a topic request.
    # - topic: a request about a subject ("explain", "what is"): "explain the osmosis I studied
    #   yesterday" asks about osmosis, so only a recall cue makes its time a filter.
    # - plan: future, modal or plan words ("will", "should", "can we", "vamos a", "akan", "گا",
    #   "سوف"): the clause is about what comes next, unless a past word is also there. Arabic
    #   علي ("I must") is left out: على (on) folds to it.
    # - past: past-tense words that outweigh a plan word ("what did we cover that will be on
    #   the test?", "کل ہم نے جو پڑھا تھا وہ امتحان میں آئے گا؟").
    # - clause_breaks: subordinators that start a new clause ("because", "pero", "karena",
    #   "کیونکہ", "لأن"): "explain osmosis because I have a test today".
    time_question_cues: Mapping[str, tuple[str, ...]]
    # Question words that are also a verb: Urdu کیا (Roman "kya", "kia") is also "did" ("میں
    # نے کام کیا"); one is read as a question only where a verb cannot stand: not last in its
    # clause and not before one of ``verb_question_auxiliaries`` ("کام کیا تھا").
    verb_question_words: frozenset[str] = field(metadata=_OPTIONAL)
    verb_question_auxiliaries: frozenset[str] = field(metadata=_OPTIONAL)
    # Bounds: a time phrase after one of these is an open interval, not the period itself.
    # "since March" and "after March" run to now; "before March" stops at March's start;
    # "until March", "by March" and "as of March 2026" stop at its end. Kinds: since, after,
    # before, until. Urdu writes them after the time as postpositions (``bounds_after``: "مارچ
    # سے پہلے" = before March, "مارچ سے" = since March), longest first. Spanish "a partir de"
    # is written "partir de": the single "a" is not a word.
    bounds_before: Mapping[str, tuple[str, ...]] = field(metadata=_OPTIONAL)
    bounds_after: Mapping[str, tuple[str, ...]] = field(metadata=_OPTIONAL)
    # Letters written onto the next word that a time phrase may carry: Arabic و/ف (and, so):
    # "والشهر الماضي؟" (and last month?).
    time_proclitics: str = field(metadata=_OPTIONAL)

    # --- Teaching phrases (SPEC §5; used by ``teaching``; ours) ---------------------------------
    # Only an explicit instruction teaches: "remember that …", "treat X as …", or the same
    # phrasing in the student's language. Questions never teach. Every phrase is matched as
    # whole folded words at the start of a sentence, so spelling variants (تذكّر/تذكر,
    # acuérdate/acuerdate) match.
    # "Remember that …": the note is what follows. Each phrase ends with its language's "that"
    # (that, que, bahwa, کہ, أن), so a bare "remember" ("remember to bring your notebook")
    # does not teach. Imperatives only: "recuerdas", "تتذكر", "یاد ہے" ask, they do not
    # instruct.
    teaching_remember: tuple[str, ...]
    # "that" fused with a pronoun (Arabic أنه "that it", أننا "that we"): such a word may stand
    # in for the last word of a remember phrase, and stays in the note, since it carries the
    # subject.
    teaching_that_with_pronoun: frozenset[str] = field(metadata=_OPTIONAL)
    # "Treat X as Y": the verb that opens the sentence, and the word between X and Y. Without
    # that word the sentence does not teach ("treat yourself", "think of a number"), unless
    # ``treat_as_optional`` (Arabic "اعتبر X Y" needs none).
    teaching_treat: tuple[str, ...] = field(metadata=_OPTIONAL)
    teaching_treat_as: frozenset[str] = field(metadata=_OPTIONAL)
    treat_as_optional: bool = field(metadata=_OPTIONAL)
    # Verb-final teaching (Urdu): "اوسموسس کو غیر فعال نقل سمجھو" (treat osmosis as passive
    # transport), "ہم مائٹوکونڈریا کو … کہتے ہیں" (we call the mitochondria …). X is the run of
    # words before the object marker (کو); the treat or naming verb comes last.
    object_markers: frozenset[str] = field(metadata=_OPTIONAL)
    treat_verbs_after: frozenset[str] = field(metadata=_OPTIONAL)
    naming_verbs_after: frozenset[str] = field(metadata=_OPTIONAL)
    # "X کو اچھی طرح سمجھو" is "understand X well", not "treat X as …": a Y made only of
    # these manner words (and stopwords) does not teach.
    treat_manner_words: frozenset[str] = field(metadata=_OPTIONAL)
    # Genitive postpositions: in "اوسموسس پانی کی حرکت ہے" (osmosis is the movement of water)
    # the word before کی belongs to what is said, not to the name, so a name found by its run
    # of words gives that word back.
    genitives: frozenset[str] = field(metadata=_OPTIONAL)
    # Words that may come before the instruction and say nothing: "please remember that …",
    # "ok, treat X as …". Skipped at the start of a sentence.
    teaching_lead_ins: tuple[str, ...]
    # Words that open a question. A message whose first sentence opens with one never teaches,
    # even without a question mark ("do you remember that …", "apakah kamu ingat …", "کیا
    # تمہیں یاد ہے کہ …", "هل تتذكر أن …"); any "?", "؟" or "¿" in a message also means it
    # never teaches.
    teaching_question_openers: tuple[str, ...]
    # "In our class we call X Y": the phrase after which the named thing X comes (Urdu names
    # before its verb: ``naming_verbs_after``).
    teaching_naming: tuple[str, ...] = field(metadata=_OPTIONAL)
    # "X is the same as Y" inside a taught note: Y is another name of X (an alias). Urdu says
    # "X اور Y ایک ہی ہیں": one of ``same_as_joins``, then one of ``same_as_endings``.
    teaching_same_as: tuple[str, ...] = field(metadata=_OPTIONAL)
    # "X means Y", "X is called Y": the words between a name and what it is called, so a
    # taught note is stored as its claim "X = Y" (``teaching.detect_teaching``'s ``claim``).
    # Only phrasings whose left side is the thing named: "the powerhouse is what we call X"
    # reads the other way round and is not here.
    teaching_means: tuple[str, ...]
    same_as_joins: frozenset[str] = field(metadata=_OPTIONAL)
    same_as_endings: tuple[str, ...] = field(metadata=_OPTIONAL)
    # Articles and determiners dropped before a named thing ("the mitochondria" →
    # mitochondria, "a la mitocondria" → mitocondria). Arabic and Urdu have none as separate
    # words.
    teaching_articles: frozenset[str] = field(metadata=_OPTIONAL)
    # Words that end a named thing and start what is said about it: "we call [the Golgi body]
    # the post office", "llamamos a [la mitocondria] la central", "kami menyebut [badan
    # Golgi] sebagai …", "نطلق على [جهاز جولجي] اسم …". An article after the name ends it too.
    # Prepositions are not here: they sit inside names ("theory of evolution", "aparato de
    # Golgi"). Urdu names end at the object marker کو instead.
    teaching_name_ends: frozenset[str] = field(metadata=_OPTIONAL)
    # A definite article written into the word (Arabic ال). With no word to end it, a name
    # runs on through the words that carry the article: an idafa ("غشاء الخلية", cell
    # membrane) or a definite adjective ("النقل السلبي", passive transport).
    definite_article: str = field(metadata=_OPTIONAL)
    # "In our class …" says where the note holds, not what it is about: skipped when a short
    # name is looked for in a note that names nothing explicitly.
    teaching_frames: tuple[str, ...]
    # Who names things in a class, as a student refers to them ("my teacher", "nuestra
    # profesora", "guru kami", "ہمارے استاد", "معلمتنا"; the book too). A "remember that …"
    # naming one is about the class, not the student: never a statement of the student's
    # profile (``profile_phrases``); "remember that our teacher calls X Y" names X
    # (``teaching_naming`` holds those phrases with their verb), and in a verb-final language
    # the walk back from کو to X stops at one ("hamare teacher X ko Y kehte hain").
    teaching_namers: tuple[str, ...]
    # Where the noun phrase a taught note is about ends: a note that names no known concept
    # mints a node named by the noun phrase it opens with ("a buffer resists changes in pH" is
    # about a buffer, not "buffer resists"). With no tagger, the phrase is cut at the first
    # later word that reads as the verb, one rule per language: en: a third-person -s
    # ("resists"), unless the ending is a noun's (-ss, -us, -is, -ics); es: nouns are followed
    # by adjectives only (endings: "membrana celular"); id: verbs carry a prefix (me-, ber-,
    # di-, ter-: "menahan", "bergerak", "diserap"); ur: the phrase ends before a postposition
    # or a genitive (stopwords); ar: the definite run.
    noun_phrase_verb_endings: tuple[str, ...] = field(metadata=_OPTIONAL)
    noun_phrase_noun_endings: tuple[str, ...] = field(metadata=_OPTIONAL)
    noun_phrase_adjective_endings: tuple[str, ...] = field(metadata=_OPTIONAL)
    noun_phrase_verb_prefixes: tuple[str, ...] = field(metadata=_OPTIONAL)

    # --- Document furniture and reading structure (``validator``, ``offline_extractor``; ours) --
    # Headings that are the file's furniture, not ideas of the subject. A concept name is
    # furniture when it is one of these phrases, ends with one ("Chapter summary", "Osmosis:
    # review questions"), or begins with one followed by a function word, a number or a colon
    # ("Introduction to osmosis", "Summary of chapter 3", "Summary: osmosis"; not "Summary
    # statistics"). Matched on folded words, in every language at once (a name is too short to
    # detect its language). Left out on purpose, because subject terms begin or end with them:
    # "index" (refractive index), "activity" (enzyme activity), "table" (periodic table),
    # "review" (peer review), "appendix" (vermiform appendix), "notes" (musical notes),
    # "exercise" (exercise physiology), "presentación" (presentación de antígenos), "índice";
    # the numbered ones count when numbered or alone (``numbered_headings``).
    section_headings: tuple[str, ...]
    # A glossary: a section under one of these headings (or a file so named) whose table rows,
    # or "term: definition" lines, each define a concept (the headings are in
    # ``section_headings`` too, so a heading is never a concept). A table whose header has a
    # term column and a definition column is a glossary wherever it stands.
    glossary_headings: tuple[str, ...]
    glossary_term_columns: tuple[str, ...]
    glossary_definition_columns: tuple[str, ...]
    # Words that are furniture when a number follows them or when they stand alone: "Chapter
    # 3", "Part II", "Appendix A", "Appendix", "Capítulo 3", "Bab 3", "باب 3", "الفصل الثالث"
    # ("Unit conversion" and "Part of speech" are subject terms). A title may follow the
    # number: "Chapter 1: The cell" is still a chapter heading.
    numbered_headings: frozenset[str]
    # Number words that stand for the number after a numbered heading ("Part Two", "Capítulo
    # primero", "Bab satu", "حصہ دوم", "الفصل الثالث"). Digits, roman numerals and single
    # letters need no list.
    number_words: frozenset[str]
    # Articles a name drops from its front ("The cell membrane" is "Cell membrane", "La
    # célula" is "Célula"). Indonesian and Urdu have none; Arabic writes its article into the
    # word (الخلية), and the concept key keeps it there, as the language analyser does.
    leading_articles: frozenset[str] = field(metadata=_OPTIONAL)
    # Question words: a name holding one is a question, not a concept ("How cells divide",
    # "Apa itu sel", "خلیہ کیا ہے", "ما هي الخلية"). Spanish qué and cómo are not listed:
    # folded, they are the everyday que and como; Spanish questions are known by their ¿ ?
    # marks.
    question_words: frozenset[str]
    # The copula of a definitional sentence "X is …": the name is the words before it. A
    # language that puts its copula last (``copula_last``: "خلیہ زندگی کی اکائی ہے") ends its
    # names at ``definition_markers`` ("X ایک … ہے", X is a …; "X سے مراد … ہے", by X is meant
    # …).
    copulas: frozenset[str]
    copula_last: bool = field(metadata=_OPTIONAL)
    definition_markers: tuple[str, ...] = field(metadata=_OPTIONAL)
    # A predicate that opens with one of these says something about X without defining it:
    # "Osmosis is not diffusion", "Cells are also …", "La célula no es …", "Sel bukan …". Urdu
    # negates just before its final copula ("… نہیں ہے").
    non_defining_starts: frozenset[str]
    # Phrases that name a prerequisite: what follows is a concept the sentence's concept
    # builds on, explained in the file or not ("Osmosis builds on diffusion", "se basa en la
    # difusión", "dibangun di atas difusi", "تعتمد على الانتشار"). Verb-final Urdu names it
    # before its phrases (``prerequisite_phrases_after_name``: "اوسموسس پھیلاؤ پر مبنی ہے").
    prerequisite_phrases: tuple[str, ...]
    prerequisite_phrases_after_name: tuple[str, ...] = field(metadata=_OPTIONAL)
    # Phrases that give a concept another name (an alias) in a file: "Osmosis is also called
    # …"; the name follows the phrase, or in Urdu comes before it
    # (``alias_phrases_after_name``: "اوسموسس کو X بھی کہا جاتا ہے").
    alias_phrases: tuple[str, ...] = field(metadata=_OPTIONAL)
    alias_phrases_after_name: tuple[str, ...] = field(metadata=_OPTIONAL)

    # --- Utterances: a check topic that is really a sentence (SPEC §6; ours) --------------------
    # A check topic that names no concept and holds one of these is a piece of conversation
    # ("ask me the questions", "bueno ahora explícame todos los pasos"), kept as evidence,
    # never a belief. Question words and asking words count too.
    utterance_verbs: frozenset[str]
    utterance_pronouns: frozenset[str]
    utterance_fillers: frozenset[str]
    # A language that drops its pronouns says who in the verb: the endings of the verb forms of
    # "you" and "we" ("prometiste", "tenemos"), for a "remember that" note that opens with one
    # (``teaching.about_the_conversation``). Empty where the pronoun is written.
    conversation_verb_endings: tuple[str, ...] = field(metadata=_OPTIONAL)

    # --- Record questions: the student asks about their own record (SPEC §7; ours) -------------
    # Phrases, folded and matched as whole words anywhere in the question.
    record_question_phrases: tuple[str, ...]
    # Phrasings the list above misses (added with domain/block.py). A phrase counts only
    # outside a look-alike: "cómo voy a resolver esto" is "how am I going to solve this", not
    # "how am I doing"; "apa yang salah dengan kalimat ini" asks what is wrong with a
    # sentence, not with the student's record.
    record_question_more_phrases: tuple[str, ...]
    # The student's own weaknesses or mistakes, named with a possessive: the record itself, no
    # frame needed.
    record_question_owned: tuple[str, ...]
    # "learned that …", "aprendí que …", "میں نے پڑھا کہ …", "تعلمت أن …" report what the
    # student read or learned, to ask about it: the subject, not the record.
    record_question_lookalikes: tuple[str, ...]
    # Record questions by cues: paraphrases the phrase lists cannot enumerate. A student asks
    # about their own record in endless wordings ("where do I keep making mistakes?", "¿en qué
    # me he equivocado hasta ahora?", "Saya salah di mana saja?"). Each wording that is a
    # record question says three things, and a subject question lacks at least one of them:
    #   self   — who: the student (I, my, we; Spanish and Arabic verbs say it in their ending:
    #            "hice", "أخطأت"), never an object pronoun alone ("tell me the common
    #            mistakes");
    #   record — what: their mistakes, learning or progress (wrong, mistakes, learned,
    #            progress);
    #   frame  — over the record: a past or perfect form asked about ("did I", "have we",
    #            "he", "میں نے"), an aggregate or span ("so far", "keep", "always", "sejauh
    #            ini", "اب تک", "حتى الآن"), or a word that names the record as a whole
    #            ("progress", "weaknesses", "weakest").
    # All three, from one language's lists, make a record question; one word may carry more
    # than one ("hice" is self and frame, "أخطأت" all three). "What is the wrong way to
    # balance an equation?" has no self; "why is my answer wrong?" no frame: neither is a
    # record question.
    #   trait  — the student's standing across the record (bad at, struggling, improving,
    #            "débil", "lemah", "کمزور", "ضعيف"): with a self cue in a clause that is a
    #            question it needs no frame ("what am I bad at?"); in a statement it is none
    #            ("I am bad at drawing, can you describe the diagram?"). Measured on the
    #            labelled everyday set (tests/unit/data/record_questions.jsonl).
    record_cues: Mapping[str, tuple[str, ...]]
    # The item at hand: a question about this step or this answer is about the work in front
    # of the student, not the record ("I think I did something wrong in this step"). One of
    # these stops the cue rule (the phrase lists above still count); so does a request for
    # advice ("how can I get better at drawing cells?").
    record_cue_blockers: tuple[str, ...]

    # --- The student's profile: a message about the student themselves (issue 30; ours) -------
    # Phrases are folded and matched as whole words anywhere in a student's message (single
    # letters count here: "I" is the whole point). ``domain/profile_phrases.py`` has the rule:
    #   language      — a ``profile_language_cues`` phrase and a name of ``profile_languages``
    #                   ("explain in Urdu", "explícame en inglés");
    #   goal          — a ``profile_goal_words`` word, a date (a day and a month name, a
    #                   weekday, a ``plan_days`` word), and a ``profile_self`` word ("my
    #                   chemistry exam is on 12 May", "my test is tomorrow");
    #   accommodation — a ``profile_needs`` phrase and a ``profile_self`` word ("I have
    #                   dyslexia"); the first phrase of its line is the need's key;
    #   preference    — a ``profile_preference_cues`` phrase ("I prefer", "please always")
    #                   and a ``profile_teaching_words`` word (how to be taught, not which
    #                   method of the subject: "I prefer the second method" is not one); or,
    #                   in one sentence that asks nothing, a ``profile_standing_words`` word
    #                   ("always"), a ``profile_request_verbs`` phrase (an imperative to
    #                   the tutor that no other person's verb shares: "give me", "dame",
    #                   "أعطني") and a teaching word, in any order ("dame siempre ejemplos
    #                   primero", "أعطني أمثلة أولا دائما"): "give me an example" asks once,
    #                   "I always forget examples" asks nothing;
    #   other         — a ``profile_remember_cues`` phrase about the student ("remember that
    #                   I …"); a claim about the subject ("remember that osmosis …") stays
    #                   teaching;
    #   name          — a ``profile_name_cues`` phrase ("my name is", "me llamo") and the name
    #                   right after it, ended by the sentence or a function word; in Latin
    #                   letters each word of a name is capitalised (one or two words: "my name
    #                   is spelled wrong" names no one), in the Arabic script (no capitals)
    #                   the name is one word that ends its sentence, after it only one of
    #                   ``profile_name_closers`` (Urdu's "ہے": "میرا نام مریم ہے").
    #                   Where the name stands *between* two phrases ("call me X" in Urdu:
    #                   "مجھے مریم کہیں", "mujhe Ayesha bulao"), ``profile_name_frames`` holds
    #                   the pairs: one or two words between them (capitalised in Latin
    #                   letters), none a function word, a closer or an epithet
    #                   (``profile_address_epithets``: "مجھے بیٹا کہیں" names no one), and
    #                   nothing after the second phrase in its clause but a closer ("مجھے
    #                   پانی کہیں نہیں ملا", "I found water nowhere", names no one).
    profile_self: tuple[str, ...]
    profile_preference_cues: tuple[str, ...]
    profile_teaching_words: tuple[str, ...]
    profile_standing_words: tuple[str, ...]
    profile_request_verbs: tuple[str, ...]
    profile_remember_cues: tuple[str, ...]
    profile_needs: Mapping[str, tuple[str, ...]]  # the need's key → its phrasings
    profile_goal_words: tuple[str, ...]
    # A goal or a need is the student's own only in a sentence that neither denies it nor
    # names someone else (``profile_phrases``): "I don't have ADHD", "no tengo examen el
    # viernes", "my brother has dyslexia", "میری بہن کا امتحان جمعہ کو ہے" say nothing of the
    # student's own (nor does a question: "do I have ADHD?"). ``profile_negations``: the
    # language's words of denial; ``profile_others``: the people of a student's life and the
    # third-person pronouns that cannot also be a copula or a "this" (Arabic "هو" joins
    # "امتحاني هو يوم الجمعة", Urdu "اس" is also "this": left out). Missing a goal or a need
    # is the safe side: a wrong one is shown in every subject's block.
    profile_negations: tuple[str, ...]
    profile_others: tuple[str, ...]
    # the verb comes last (Urdu): a denial follows what it denies, else it goes before
    profile_negation_after: bool = field(metadata=_OPTIONAL)
    # A goal's day written without a calendar date ("my exam is tomorrow", "… on Friday";
    # ``domain/plandates.py``). ``plan_days``: the words for 0, 1 and 2 days after the day the
    # message was written (today, tomorrow, the day after). Weekday names come from CLDR: the
    # next such day after the message's (in a question about the lessons, ``timewords``, the
    # last such day before it). ``plan_day_blockers``: a word right before a day
    # word that makes it no day (Spanish "la mañana" is the morning, Arabic "في اليوم" per
    # day). ``ambiguous_weekday_words``: a weekday name that is also an everyday word
    # (Indonesian "minggu" is Sunday and a week, Urdu "ہفتہ" Saturday and a week), a day
    # only beside one of ``weekday_cues`` ("hari Minggu", "ہفتہ کو").
    # ``profile_self_suffixes``: a possessive ending that makes a goal word the student's
    # own, on it or on the word after it (Indonesian "ujianku", "ujian biologiku").
    plan_days: Mapping[int, tuple[str, ...]]
    plan_day_blockers: frozenset[str] = field(metadata=_OPTIONAL)
    ambiguous_weekday_words: frozenset[str] = field(metadata=_OPTIONAL)
    weekday_cues: frozenset[str] = field(metadata=_OPTIONAL)
    profile_self_suffixes: tuple[str, ...] = field(metadata=_OPTIONAL)
    # ``profile_goal_verbs``: the goal words that are also verbs (English "test", "quiz"; Urdu
    # "ٹیسٹ"), a verb beside one of ``profile_goal_verb_before`` / ``_after`` ("to test", "test
    # me", "quiz myself", "test my code"; "ٹیسٹ کرنا", "test karo"): no exam is told ("a final.
    # It is tomorrow" is one). Empty where the goal words are nouns only (Spanish "examen",
    # Indonesian "ujian", Arabic "امتحان": the verbs are other words).
    profile_goal_verbs: frozenset[str] = field(metadata=_OPTIONAL)
    profile_goal_verb_before: frozenset[str] = field(metadata=_OPTIONAL)
    profile_goal_verb_after: frozenset[str] = field(metadata=_OPTIONAL)
    profile_language_cues: tuple[str, ...]
    profile_languages: Mapping[str, tuple[str, ...]]  # language code → its names here
    profile_name_cues: tuple[str, ...]
    profile_name_closers: tuple[str, ...] = field(metadata=_OPTIONAL)
    # the phrase before the name → the phrases that may follow it
    profile_name_frames: Mapping[str, tuple[str, ...]] = field(metadata=_OPTIONAL)
    # The tutor addressing the student by name ("Hi Maya!", "Welcome back, Maya", "أهلا يا
    # ليلى"): a ``profile_address_cues`` phrase (a greeting, a thanks, a praise, a goodbye)
    # that begins a clause, then — after a comma or one of ``profile_address_particles``
    # (Arabic's vocative "يا"), or straight away — the name, which ends its clause: the same
    # name rule as above (capitalised words in Latin letters, one word in the Arabic script).
    # Heard in the tutor's lines only, and only while the profile holds no name.
    profile_address_cues: tuple[str, ...]
    profile_address_particles: tuple[str, ...] = field(metadata=_OPTIONAL)
    # What a tutor calls a student, or a class, that is not a name ("Good job, Champ!",
    # "Hello, World!", "Halo, Dik Putri!", "شاباش بیٹا", "أحسنت يا بطل"): words of endearment,
    # praise, kinship and politeness, and the group or the world. Such a word names no one;
    # before a name it is a title and the name follows ("Dik Putri" calls her Putri).
    profile_address_epithets: tuple[str, ...]
