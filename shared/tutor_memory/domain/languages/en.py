"""English (en): the pack the analyser, the time reader, teaching, the file reader and the
record rule read for English text (see ``languages`` for what each field is)."""

from __future__ import annotations

from typing import Final

from tutor_memory.domain.languages.base import Language, snowball
from tutor_memory.domain.languages.base import phrases as _phrases
from tutor_memory.domain.languages.base import words as _words

EN: Final = Language(
    code="en",
    name="English",
    script="latin",
    script_default=True,
    stopword_source=(
        "Snowball's English list, https://snowballstem.org/algorithms/english/stop.txt (BSD), as "
        "Lucene ships it (analysis/snowball/english_stop.txt); entries with an apostrophe "
        '("don\'t") are left out: the tokeniser splits them (see stopword_additions)'
    ),
    stem=snowball("english"),
    # --- Stopwords and the analyser ---
    stopwords=_words(
        "i me my myself we our ours ourselves you your yours yourself yourselves he him his "
        "himself she her hers herself it its itself they them their theirs themselves what "
        "which who whom this that these those am is are was were be been being have has had "
        "having do does did doing would should could ought cannot a an the and but if or "
        "because as until while of at by for with about against between into through during "
        "before after above below to from up down in out on off over under again further then "
        "once here there when where why how all any both each few more most other some such "
        "no nor not only own same so than too very"
    ),
    # The pieces the tokeniser leaves of contractions (don't → don, you'll → ll; one-letter
    # pieces are dropped anyway), modal auxiliaries Snowball leaves out for their rare noun
    # senses ("a tin can", "free will"; the month May is read by timewords from the raw text,
    # never from terms), and the politeness of a chat.
    stopword_additions=_words(
        "don doesn didn isn aren wasn weren hasn haven hadn wouldn shouldn couldn mustn shan "
        "ll ve re can will shall may might must us whose whether also please thanks thank "
        "yes okay ok hi hello hey"
    ),
    stopword_exceptions=frozenset(),
    asking_words=_words(
        "explain define meaning understand difference differences remind recap summarise "
        "summarize cover covered learn learned learnt study studied discuss discussed talk "
        "talked revise revised"
    ),
    stopword_proclitics=frozenset(),
    # --- Language detection ---
    detection_markers=_words(
        "the an is are was were what how why which who when where does do did of and to in on "
        "it this that these those with for from about can could should would we you my our "
        "they be been have has not explain tell please between difference"
    ),
    latin_markers=frozenset(),
    own_letters=frozenset(),
    vote_letters=frozenset(),
    # --- Time: relative phrases and month names ---
    relative_phrases={
        "today": ("today",),
        "yesterday": ("yesterday",),
        "day_before_yesterday": ("day before yesterday", "two days ago", "2 days ago"),
        "this_week": ("this week",),
        "last_week": ("last week", "previous week", "a week ago", "one week ago", "1 week ago"),
        "this_month": ("this month",),
        "last_month": ("last month", "previous month", "a month ago", "one month ago"),
        "days_ago_3": ("three days ago", "3 days ago"),
        "weeks_ago_2": ("two weeks ago", "2 weeks ago", "week before last"),
        "weeks_ago_3": ("three weeks ago", "3 weeks ago"),
        "months_ago_2": ("two months ago", "2 months ago"),
        "months_ago_3": ("three months ago", "3 months ago"),
    },
    not_a_time=("last week of",),
    counts_before_relative=frozenset(),
    both_ways_days=frozenset(),
    future_markers=frozenset(),
    # a plan in the past (plandates)
    past_markers=_words(
        "was were had did got took failed passed went wrote finished completed bombed aced "
        "messed happened"
    ),  # not "sat": the SAT is an exam
    total_nouns=frozenset(),
    today_blockers=frozenset(),
    month_locales=("en",),
    ambiguous_month_words=_words("may march"),
    own_month_words=frozenset(),
    excluded_month_words=frozenset(),
    month_cues_before=_words("in during since until till last mid of"),
    month_cues_after=frozenset(),
    last_words=_words("last"),
    next_words=_words("next"),
    year_connectors=_words("of"),
    # --- Time: does a question ask about a time? ---
    time_question_cues={
        "fillers": _phrases(
            "and, so, ok, okay, oh, um, hmm, hey, hi, hello, also, but, then, well, sorry, "
            "please, sir, teacher, now, just, yeah, yes, right, btw, actually, wait"
        ),
        "openers": _phrases(
            "what, whats, which, when, where, who, how, why, did, do, does, have, has, had, was, "
            "were, is, are, am, can, could, would, will, should, shall, tell, remind, recap, "
            "summarise, summarize, list, show, give, explain, describe, define, help, go over, "
            "forgot, forget, don remember, do not remember, wonder, want to know, like to know"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases("remind me, forgot what, don remember, do not remember"),
        "ellipsis": _phrases(
            "what about, how about, and, also, the, in, on, during, from, of, about, what, then"
        ),
        "recall": _phrases(
            "did we, we did, have we, had we, we ve, we have, we had, we covered, we studied, we "
            "learned, we learnt, we talked, we discussed, we went, we read, we worked, we "
            "practised, we practiced, we revised, we reviewed, we looked, we were, we done, you "
            "taught, you told, you explained, you showed, you said, you gave, did you teach, did "
            "you tell, did you explain, did you show, did you say, did you give, "
            # "what did u teach me", "what did I tell you": a single letter is no word here
            "did teach, did tell, did explain, did say, "
            "taught me, remind, recap, summarise, "
            "summarize, summary, lesson, lessons, session, sessions, topics, wrong, mistake, "
            "mistakes, miss, missed, did I do, did I get, we stop, we stopped, left off, we leave "
            "off, were we"
        ),
        "study": _phrases(
            "study, studied, learn, learned, learnt, cover, covered, done, review, reviewed, "
            "revise, revised, practise, practised, practiced, discuss, discussed, go over, went "
            "over, gone over, go through, went through, work on, worked on, studying, learning, "
            "covering, reviewing, revising, practising, practicing, discussing, going over, "
            "going through, working on"
        ),
        "topic": _phrases(
            "explain, define, describe, help, what is, what are, what does, how does, how do, "
            "meaning, mean"
        ),
        "plan": _phrases(
            "will, gonna, going to, should, shall, must, need to, needs to, have to, has to, can "
            "we, could we, let, lets, upcoming, due"
        ),
        "past": _phrases(
            "did, was, were, had, have we, we ve, done, covered, studied, learned, learnt, went, "
            "talked, discussed, reviewed, revised, practised, practiced, got, missed, taught, "
            "told, explained"
        ),
        "clause_breaks": _phrases("because, cause, cuz, coz, but, so, although, though"),
    },
    verb_question_words=frozenset(),
    verb_question_auxiliaries=frozenset(),
    bounds_before={
        "since": _phrases("since, starting from"),
        "after": _phrases("after"),
        "before": _phrases("before"),
        "until": _phrases("until, till, up to, up until, by, as of"),
    },
    bounds_after={},
    time_proclitics="",
    # --- Teaching phrases ---
    teaching_remember=(
        "remember that",
        "always remember that",
        "keep in mind that",
        "bear in mind that",
        "don't forget that",
        "do not forget that",
        "never forget that",
        "I want you to remember that",
    ),
    teaching_that_with_pronoun=frozenset(),
    teaching_treat=("treat", "think of", "regard"),
    teaching_treat_as=_words("as"),
    treat_as_optional=False,
    object_markers=frozenset(),
    treat_verbs_after=frozenset(),
    naming_verbs_after=frozenset(),
    treat_manner_words=frozenset(),
    genitives=frozenset(),
    teaching_lead_ins=(
        "please",
        "kindly",
        "ok",
        "okay",
        "so",
        "and",
        "also",
        "now",
        "hey",
        "oh",
        "btw",
        "by the way",
        "just",
    ),
    teaching_question_openers=(
        "what",
        "why",
        "how",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "which",
        "do",
        "does",
        "did",
        "don't",
        "didn't",
        "is",
        "are",
        "was",
        "were",
        "isn't",
        "can",
        "could",
        "would",
        "will",
        "shall",
        "should",
        "have",
        "has",
    ),
    teaching_naming=(
        "we call",
        "we name",
        "we refer to",
        "i call",
        # "remember that our teacher calls X Y" (teaching_namers with their verb)
        "my teacher calls",
        "our teacher calls",
        "the teacher calls",
        "my teachers call",
        "our teachers call",
        "my professor calls",
        "our professor calls",
        "the professor calls",
        "my tutor calls",
        "sir calls",
        "miss calls",
        "our textbook calls",
        "the textbook calls",
        "the book calls",
        "our book calls",
    ),
    teaching_same_as=(
        "is the same as",
        "are the same as",
        "is the same thing as",
        "means the same as",
    ),
    teaching_means=(
        "means",
        "stands for",
        "is called",
        "are called",
        "is also called",
        "is known as",
        "are known as",
    ),
    same_as_joins=frozenset(),
    same_as_endings=(),
    teaching_articles=_words("the a an our this that these those its their"),
    teaching_name_ends=_words("as is are was were"),
    definite_article="",
    teaching_frames=("in our class", "in this class", "in my class", "in class", "for our class"),
    teaching_namers=(
        "my teacher",
        "our teacher",
        "the teacher",
        "my teachers",
        "our teachers",
        "my professor",
        "our professor",
        "the professor",
        "my tutor",
        "our tutor",
        "sir",
        "miss",
        "my textbook",
        "our textbook",
        "the textbook",
        "our book",
        "the book",
    ),
    noun_phrase_verb_endings=("s",),
    noun_phrase_noun_endings=("ss", "us", "is", "ics"),
    noun_phrase_adjective_endings=(),
    noun_phrase_verb_prefixes=(),
    # --- Document furniture and reading structure ---
    section_headings=_phrases(
        "introduction, overview, summary, recap, conclusion, conclusions, exercises, "
        "review questions, practice questions, questions, answers, check your understanding, "
        "test yourself, self assessment, quiz, common misconceptions, misconceptions, "
        "common mistakes, key terms, key words, key ideas, key points, vocabulary, glossary, "
        "definitions, terms and definitions, "
        "learning objectives, learning outcomes, objectives, table of contents, contents, "
        "references, bibliography, further reading, worked example, worked examples, examples, "
        "preface, foreword, acknowledgements, acknowledgments"
    ),
    glossary_headings=_phrases(
        "glossary, key terms, vocabulary, definitions, terms and definitions"
    ),
    glossary_term_columns=_phrases("term, terms, word, concept, name, key term"),
    glossary_definition_columns=_phrases(
        "definition, definitions, meaning, description, explanation"
    ),
    numbered_headings=_words(
        "chapter unit lesson part section appendix module week topic activity exercise "
        "example figure fig table lecture session practical experiment question task step"
    ),
    number_words=_words(
        "one two three four five six seven eight nine ten eleven twelve "
        "first second third fourth fifth sixth seventh eighth ninth tenth"
    ),
    leading_articles=_words("the a an"),
    question_words=_words("what why how which when where who whom whose"),
    copulas=_words("is are"),
    copula_last=False,
    definition_markers=(),
    non_defining_starts=_words(
        "not no never also only usually often sometimes very too more less so"
    ),
    prerequisite_phrases=_phrases(
        "builds on, build on, building on, requires, require, recall that, assumes, assume, "
        "presupposes, relies on"
    ),
    prerequisite_phrases_after_name=(),
    alias_phrases=_phrases("also called, also known as, sometimes called"),
    alias_phrases_after_name=(),
    # --- Utterances ---
    utterance_verbs=_words(
        "ask tell give show help let try want need please quiz test check go start"
    ),
    utterance_pronouns=_words("i me my we us our you your it this that"),
    utterance_fillers=_words("ok okay so well now yes no yeah hmm um uh right sure thanks"),
    # --- Record questions ---
    conversation_verb_endings=(),
    record_question_phrases=(
        "what did i get wrong",
        "what have i got wrong",
        "what did i miss",
        "my mistakes",
        "what have we learned",
        "what have we learnt",
        "what did we learn",
        "what have i learned",
        "how am i doing",
        "my progress",
        "my record",
        "what did we cover",
        "what have we covered",
        "what did we do",
        "what have we done",
        "my weak",
        "where am i weak",
    ),
    record_question_more_phrases=(
        "where did i go wrong",
        "what mistakes did i make",
        "what mistakes have i made",
        "what did we study",
        "what have we studied",
        "what have i learnt",
    ),
    record_question_owned=("my weaknesses", "my weak points", "our mistakes"),
    record_question_lookalikes=(
        "learned that",
        "learnt that",
        "how am i doing this",
        "how am i doing the",
    ),
    record_cues={
        "self": _phrases("i, my, we, our, myself"),
        "record": _phrases(
            "wrong, mistakes, errors, missed, miss, learned, learnt, covered, studied, struggle, "
            "struggled, struggling, weak, weaker, weakest, weaknesses, progress, improved, "
            "improving, mastered, bad at, hardest, trouble with, worst, better, worse"
        ),
        "frame": _phrases(
            "did i, did we, have i, have we, i ve, we ve, so far, until now, till now, up to now, "
            " yet, keep, kept, still getting, still making, always, usually, "
            "often, lately, recently, last time, in the past, weakest, hardest, worst, progress, "
            "weaknesses"
        ),
        # the student's standing across the record (weak at, struggling, improving): asked
        # about with themselves in a question, enough without a frame (``record_question``)
        "trait": _phrases(
            "bad at, weak at, weak in, weakest, weaknesses, struggle, struggle with, "
            "struggling, getting better, improving, improved, progress, worse at, better at, "
            "hardest for me, trouble with"
        ),
    },
    record_cue_blockers=_phrases(
        "this question, this problem, this equation, this answer, this exercise, this step, "
        "this sentence, this one, this part, step, here, get this, got this, got that, get it, "
        "getting this"
        # a request for advice on improving is no question about the record
        ", how can i, how could i"
    ),
    profile_self=_phrases("i, i'm, i am, my, me, myself, i've, i have"),
    profile_preference_cues=_phrases(
        "i prefer, i'd prefer, i would prefer, i'd rather, i like it when you, i learn better, "
        "i understand better, please always, please never, always explain, always give, "
        "can you always, could you always"
    ),
    profile_teaching_words=_phrases(
        "example, examples, step by step, steps, simple, simpler, short, shorter, slowly, slow, "
        "pictures, diagrams, explain, explanations, explanation, answers, summary, summaries, "
        "analogies, words, sentences, questions first"
    ),
    profile_standing_words=_phrases("always, every time, each time"),
    profile_request_verbs=_phrases("give me, show me, start with, begin with, tell me"),
    profile_remember_cues=_phrases(
        "remember that i, remember i, remember that my, keep in mind that i, note that i, "
        "don't forget that i, do not forget that i"
    ),
    profile_needs={
        "dyslexia": _phrases("dyslexia, dyslexic"),
        "adhd": _phrases("adhd, attention deficit"),
        "autism": _phrases("autism, autistic"),
        "extra time": _phrases("extra time, more time in tests, additional time"),
        "hearing": _phrases("hard of hearing, hearing aid, deaf"),
        "sight": _phrases("visually impaired, low vision, colour blind, color blind, large print"),
        "short sentences": _phrases("short sentences"),
    },
    profile_goal_words=_phrases("exam, exams, test, tests, final, finals, quiz, olympiad, sat"),
    profile_negations=_phrases(
        "not, no, never, nope, neither, nor, cannot, don't, dont, doesn't, doesnt, didn't, "
        "didnt, isn't, isnt, aren't, arent, wasn't, wasnt, haven't, havent, hasn't, hasnt, "
        "can't, cant, won't, wont"
    ),
    profile_negation_after=False,
    profile_others=_phrases(
        "brother, brothers, sister, sisters, sibling, siblings, bro, sis, mum, mom, mother, "
        "dad, father, parents, friend, friends, bestie, cousin, cousins, aunt, uncle, grandma, "
        "grandpa, grandmother, grandfather, granny, boyfriend, girlfriend, classmate, "
        "classmates, roommate, neighbour, neighbor, son, daughter, he, she, his, her, they, "
        "their, people, person, someone, somebody, dog, dogs, cat, cats, puppy, pet"
    ),
    plan_days={0: ("today",), 1: ("tomorrow",), 2: ("day after tomorrow",)},
    plan_day_blockers=frozenset(),
    ambiguous_weekday_words=frozenset(),
    weekday_cues=frozenset(),
    profile_self_suffixes=(),
    profile_goal_verbs=_words("test tests quiz"),
    profile_goal_verb_before=_words("to will ll can could should must gonna wanna lets let"),
    profile_goal_verb_after=_words("me myself yourself you my it out them him her us"),
    profile_language_cues=_phrases(
        "explain in, explain it in, explain things in, teach me in, answer in, answer me in, "
        "speak in, talk to me in, reply in, write in"
    ),
    profile_languages={
        "en": ("english",),
        "es": ("spanish",),
        "id": ("indonesian", "bahasa indonesia"),
        "ur": ("urdu",),
        "ar": ("arabic",),
    },
    profile_name_cues=_phrases("my name is, my name's, call me, you can call me"),
    profile_name_closers=(),
    profile_name_frames={},  # the name follows its cue ("call me Maya")
    profile_address_cues=_phrases(
        "hi, hello, hey, hiya, welcome, welcome back, good morning, good afternoon, good evening, "
        "well done, good job, great job, nice work, great work, good work, thanks, thank you, bye, "
        "goodbye, see you, see you soon, see you next time, congratulations, good luck, "
        "nice to see you, good to see you, great to see you"
    ),
    profile_address_particles=(),
    profile_address_epithets=_phrases(
        "world, everyone, everybody, all, class, team, guys, folks, there, again, friend, "
        "friends, buddy, pal, mate, champ, champion, genius, einstein, superstar, star, "
        "rockstar, hero, legend, sir, madam, miss, dear, sweetie, honey, kiddo, kid, kids, "
        "student, students"
    ),
)

# English's function and asking words, for a language whose texts mix English in (Roman Urdu
# lines: ``ur``'s stopwords take them). A set, not a pack: one pack a module.
FUNCTION_WORDS: Final = EN.stopwords | EN.stopword_additions | EN.asking_words
