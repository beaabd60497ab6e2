"""The conservative token estimate behind every budget, and fitting whole lines into one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor_memory.domain.tokens import count_tokens, fit_lines

ENGLISH = "Mitochondria release energy from glucose and are called the powerhouse of the cell."
URDU = "مائٹوکونڈریا گلوکوز سے توانائی خارج کرتے ہیں اور انہیں خلیے کا پاور ہاؤس کہا جاتا ہے۔"
ARABIC = "الميتوكوندريا تطلق الطاقة من الجلوكوز، وتسمى محطة الطاقة في الخلية."
SPANISH = "Las mitocondrias liberan energía a partir de la glucosa."
INDONESIAN = "Mitokondria melepaskan energi dari glukosa dan disebut pembangkit tenaga sel."

SAMPLES = [ENGLISH, URDU, ARABIC, SPANISH, INDONESIAN, "12 Jul · 3.14 😀\tok\n\nnext  line"]


def test_empty_text_costs_nothing() -> None:
    assert count_tokens("") == 0


def test_short_common_words_cost_a_token_each_and_long_words_more() -> None:
    assert count_tokens("the cell") == 2
    assert count_tokens("Mitochondria") == 4
    assert count_tokens("Mitochondria") > count_tokens("cell")


def test_english_is_counted_a_little_above_what_real_tokenizers_give() -> None:
    # GPT-4's cl100k encodes this sentence in 16 tokens, GPT-4o's o200k in 18.
    assert 18 <= count_tokens(ENGLISH) <= 26


@pytest.mark.parametrize(
    ("text", "real"),
    [
        # Exact counts from GPT-4's cl100k, the worst common vocabulary for Arabic script.
        (URDU, 83),
        (ARABIC, 50),
        ("میں نے اب تک کیا غلط کیا ہے؟", 28),
    ],
)
def test_arabic_script_is_not_undercounted_by_much(text: str, real: int) -> None:
    assert count_tokens(text) >= 0.9 * real


def test_arabic_script_costs_more_than_as_many_latin_characters() -> None:
    latin = ("abcde " * 20)[: len(ARABIC)]
    assert len(latin) == len(ARABIC)
    assert count_tokens(ARABIC) > count_tokens(latin)
    urdu_letters = "خلیہ" * 5
    assert count_tokens(urdu_letters) > count_tokens("cell" * 5)


def test_an_urdu_sentence_costs_more_than_its_english_translation() -> None:
    assert count_tokens(URDU) > 2 * count_tokens(ENGLISH)


def test_an_arabic_sentence_costs_more_than_its_english_translation() -> None:
    english = "Mitochondria release energy from glucose, and are called the cell's power station."
    assert count_tokens(ARABIC) > count_tokens(english)


def test_accented_letters_cost_extra() -> None:
    assert count_tokens("energía") > count_tokens("energia")
    # Written as a base letter plus a combining accent it is one byte longer, never cheaper.
    assert count_tokens("energi\u0301a") >= count_tokens("energía")


@pytest.mark.parametrize("text", SAMPLES)
def test_appending_text_never_lowers_the_count(text: str) -> None:
    counts = [count_tokens(text[:i]) for i in range(len(text) + 1)]
    assert counts == sorted(counts)
    assert counts[-1] > 0


def test_appending_a_word_always_costs_something() -> None:
    for text in SAMPLES:
        assert count_tokens(text + " word") > count_tokens(text)
        assert count_tokens(text + " لفظ") > count_tokens(text)


def test_lines_add_up_with_one_token_per_line_break() -> None:
    lines = [ENGLISH, URDU, " indented", "", ARABIC + " ", "😀"]
    assert count_tokens("\n".join(lines)) == sum(map(count_tokens, lines)) + len(lines) - 1


def test_the_same_text_always_gets_the_same_count() -> None:
    assert [count_tokens(t) for t in SAMPLES] == [count_tokens(t) for t in SAMPLES]


# --- fitting lines ---------------------------------------------------------------------------


def test_fitting_keeps_whole_lines_in_order_until_the_budget() -> None:
    lines = ["one two", "six ten", "red cat"]  # 2 tokens each, 1 per line break
    assert fit_lines(lines, 100) == lines
    assert fit_lines(lines, 8) == lines
    assert fit_lines(lines, 7) == lines[:2]
    assert fit_lines(lines, 5) == lines[:2]
    assert fit_lines(lines, 4) == lines[:1]
    assert fit_lines(lines, 1) == []
    assert fit_lines(lines, 0) == []


def test_fitting_never_skips_a_line_to_slip_a_shorter_one_in() -> None:
    assert fit_lines(["a", URDU, "b"], 5) == ["a"]


@pytest.mark.parametrize("budget", range(0, 120, 7))
def test_fitted_lines_never_exceed_the_budget(budget: int) -> None:
    lines = [ENGLISH, URDU, ARABIC, SPANISH, INDONESIAN]
    kept = fit_lines(lines, budget)
    assert count_tokens("\n".join(kept)) <= budget
    assert kept == lines[: len(kept)]


def test_fitting_checks_the_joined_text_when_a_counter_does_not_add_up() -> None:
    # A counter that charges more for the joined text than for its lines one by one.
    def square(text: str) -> int:
        return len(text) ** 2

    kept = fit_lines(["ab", "ab", "ab"], 10, count=square)
    assert kept == ["ab"]
    assert square("\n".join(kept)) <= 10


# --- the counter agrees with the rule it implements, character by character ------------------

_REF_KINDS = ("latin", "arabic", "letter", "digit", "punct", "space", "newline", "other")


def _reference_kind(ch: str, previous: str | None) -> str:
    """The module's rule read one character at a time, as it was first written."""
    import unicodedata

    if ch in "\n\r":
        return "newline"
    if ch.isspace():
        return "space"
    category = unicodedata.category(ch)
    if category.startswith("M"):
        return previous if previous in ("latin", "arabic", "letter") else "other"
    if category == "Nd":
        return "digit"
    if category.startswith("L"):
        arabic = any(
            lo <= ch <= hi
            for lo, hi in (
                ("\u0600", "\u06ff"),
                ("\u0750", "\u077f"),
                ("\u0870", "\u08ff"),
                ("\ufb50", "\ufdff"),
                ("\ufe70", "\ufeff"),
            )
        )
        if arabic:
            return "arabic"
        return "latin" if ch < "\u0250" or "\u1e00" <= ch <= "\u1eff" else "letter"
    return "punct" if category.startswith("P") else "other"


def _reference_price(kind: str, run: str) -> int:
    n = len(run)
    if kind == "latin":
        return 1 + max(n - 2, 0) // 3 + sum(1 for ch in run if not ch.isascii())
    if kind == "arabic":
        basic = sum(1 for ch in run if "\u0621" <= ch <= "\u064a")
        return 1 + (3 * basic + 6 * (n - basic)) // 4
    if kind == "digit":
        return -(-n // 3)
    if kind == "space":
        return 0 if run == " " else 1
    if kind == "other":
        return 2 * n
    return n


def _reference_count(text: str) -> int:
    total, kind, start = 0, None, 0
    for i, ch in enumerate(text):
        k = _reference_kind(ch, kind)
        if k != kind:
            if kind is not None:
                total += _reference_price(kind, text[start:i])
            kind, start = k, i
    if kind is not None:
        total += _reference_price(kind, text[start:])
    return total


# Letters of the five languages, combining marks (after letters, spacing and at the start),
# digits of two scripts, symbols, emoji, spacing of every sort.
_ALPHABET = (
    "abcXYZéñçüạế ìí\u0301\u0308\u064b\u064e\u0670"
    "مائٹوکونڈریاخلیےںھی"
    "الميتوكندرياﻻﷲ"
    "中文Жж०१"
    "0123456789٠١٢"
    ".,;:!?¿¡()«»…—-'\""
    "$+<=>^`|~€😀\u200b\u00ad"
    " \t\n\r\x0b\x0c\x1c\x85\u2028\u3000"
)


@given(st.text(alphabet=_ALPHABET, max_size=80))
@settings(max_examples=400, deadline=None)
def test_the_counter_agrees_with_the_rule_read_character_by_character(text: str) -> None:
    assert count_tokens(text) == _reference_count(text)


@pytest.mark.parametrize("text", SAMPLES)
def test_each_language_is_priced_by_the_rule(text: str) -> None:
    assert count_tokens(text) == _reference_count(text)


def test_text_made_of_many_characters_is_counted_without_keeping_them_all() -> None:
    from tutor_memory.domain import tokens

    many = "".join(chr(p) for p in range(0x4E00, 0x4E00 + 3 * tokens.KINDS_KEPT))
    assert count_tokens(many) == _reference_count(many) == len(many)
    assert len(tokens._KINDS) <= tokens.KINDS_KEPT
