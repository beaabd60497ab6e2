"""A student asking about their own record is recognised in their own words, in five languages;
a question about the subject that merely uses the same words is not (SPEC §7, issue 13).

The phrasings are ours, written from how students ask about their own record, not taken from
any test set. A record question puts the beliefs and the checks behind them in the block.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tutor_memory.domain.language import LANGUAGES
from tutor_memory.domain.record_question import is_record_question

RECORD_QUESTIONS: dict[str, list[str]] = {
    "en": [
        "What did I get wrong so far?",
        "Where do I keep making mistakes?",
        "How am I doing?",
        "What have we learned so far?",
        "What should I review from my mistakes?",
        "Which topics have I been struggling with?",
        "Can you remind me what I've got wrong before?",
        "Have I made any mistakes in fractions lately?",
        "Which questions did I miss last week?",
        "What have I been bad at?",
        "Show me the mistakes I've made so far",
        "Where am I weakest?",
        "What did we cover last time?",
        "Have I improved in algebra?",
        "What am I still getting wrong?",
        "Tell me which concepts I haven't mastered yet",
        "what are my weaknesses in chemistry",
        "Which topics am I worst at?",
        "What have I been getting wrong in biology?",
        "Give me a summary of my mistakes",
        "Did I do better on osmosis this week?",
    ],
    "es": [
        "¿En qué me he equivocado hasta ahora?",
        "¿Qué he hecho mal?",
        "¿Cómo voy en química?",
        "¿Qué hemos aprendido hasta ahora?",
        "¿Dónde sigo fallando?",
        "¿Qué temas no he dominado?",
        "¿Qué debería repasar de mis errores?",
        "¿En qué he mejorado?",
        "¿Qué preguntas fallé la semana pasada?",
        "¿Cuáles son mis puntos débiles?",
        "¿Qué vimos la última vez?",
        "Dime en qué me sigo equivocando",
        "¿Qué me ha salido mal hasta ahora?",
        "¿Cuánto he avanzado?",
        "¿Qué errores cometí en el último examen?",
        "¿Qué temas se me dan peor?",
        "¿Qué he estado haciendo mal en biología?",
        "Resúmeme mis errores",
        "¿He mejorado en ósmosis esta semana?",
    ],
    "id": [
        "Apa saja yang salah saya kerjakan sejauh ini?",
        "Saya salah di mana saja?",
        "Bagaimana perkembangan belajar saya?",
        "Materi apa yang sudah kita pelajari?",
        "Kesalahan apa yang sering saya buat?",
        "Di bagian mana saya masih lemah?",
        "Soal mana yang saya jawab salah minggu lalu?",
        "Apa kesalahan saya selama ini?",
        "Topik apa yang paling sulit buat saya?",
        "Bagaimana kemajuan saya?",
        "Apa yang sudah saya kuasai?",
        "Saya sering keliru di mana?",
        "Apa saja yang sudah kita bahas?",
        "Topik apa yang paling buruk buat saya?",
        "Apa yang selama ini saya kerjakan dengan salah di biologi?",
        "Ringkas kesalahan-kesalahan saya",
        "Apakah saya sudah lebih baik di osmosis minggu ini?",
        "Minggu lalu kita belajar apa?",  # the verb's base form, the time first
    ],
    "ur": [
        "میں نے اب تک کیا غلط کیا ہے؟",
        "میں کہاں کہاں غلطیاں کرتا ہوں؟",
        "ہم نے اب تک کیا پڑھا ہے؟",
        "میری کارکردگی کیسی ہے؟",
        "مجھے کن موضوعات میں مشکل ہوتی ہے؟",
        "میں نے کون سے سوال غلط کیے؟",
        "میری کمزوریاں کیا ہیں؟",
        "مجھے اپنی غلطیوں میں سے کیا دہرانا چاہیے؟",
        "میں کس چیز میں بار بار غلطی کرتی ہوں؟",
        "پچھلی بار ہم نے کیا پڑھا تھا؟",
        "میری پیش رفت کیسی ہے؟",
        "میں نے اب تک کیا کیا سیکھا ہے؟",
        "میں کن سوالوں میں ابھی تک غلطی کر رہا ہوں؟",
        "میں کن موضوعات میں سب سے کمزور ہوں؟",
        "میں حیاتیات میں کیا غلط کرتا رہا ہوں؟",
        "میری غلطیوں کا خلاصہ دیں",
        "کیا اس ہفتے میں اوسموسس میں بہتر ہوا ہوں؟",
    ],
    "ar": [
        "ماذا أخطأت حتى الآن؟",
        "أين أخطئ دائماً؟",
        "كيف هو مستواي حتى الآن؟",
        "ما الأخطاء التي ارتكبتها؟",
        "ماذا تعلمنا حتى الآن؟",
        "ما هي نقاط ضعفي؟",
        "في أي المواضيع أخطأت أكثر؟",
        "هل تحسنت في الكسور؟",
        "ماذا درسنا في الحصص الماضية؟",
        "ما الذي يجب أن أراجعه من أخطائي؟",
        "ما المفاهيم التي لم أتقنها بعد؟",
        "أين أقع في الخطأ كثيراً؟",
        "ما الذي فهمته خطأ حتى الآن؟",
        "كيف أدائي في الاختبارات السابقة؟",
        "ما المواضيع التي أنا أضعف فيها؟",
        "ما الذي كنت أخطئ فيه في الأحياء؟",
        "لخص لي أخطائي",
        "هل تحسن مستواي في التناضح هذا الأسبوع؟",
    ],
}

# Subject questions that use the same words (wrong, mistake, learned, my), or a student's
# question about the item in front of them: none asks about their record. The last four of
# each language (and of each list above) were written after the cue lists, as a fresh check;
# the cue lists then gained the words those phrasings showed missing (worst, better, peor,
# buruk, سب سے, أضعف, كنت) and the rule its one-language restriction (Urdu درست "correct" is
# Arabic "I studied").
LOOKALIKES: dict[str, list[str]] = {
    "en": [
        "What is the wrong way to balance an equation?",
        "What is a common mistake when converting units?",
        "Why is my answer wrong?",
        "What did Mendel learn from his pea plants?",
        "What mistakes do students usually make with fractions?",
        "I think I did something wrong in this equation, can you check?",
        "Is it wrong to divide by zero?",
        "What progress has been made in cancer research?",
        "How are you doing?",
        "Tell me the common errors in titration",
        "I learned that cells divide, but how do they copy their DNA?",
        "What is the worst-case runtime?",
        "Why did the experiment go wrong?",
        "Is my calculation of the molar mass right?",
        "What did I need to bring for the lab?",
    ],
    "es": [
        "¿Qué es un error de medición?",
        "¿Por qué está mal mi respuesta?",
        "¿Cuál es el error más común al balancear ecuaciones?",
        "¿Cómo voy a resolver esta ecuación?",
        "¿Qué aprendió Mendel con los guisantes?",
        "¿Está mal dividir entre cero?",
        "Creo que hice algo mal en este paso",
        "¿Qué errores de redondeo existen?",
        "Aprendí que las células se dividen, ¿cómo copian su ADN?",
        "¿Por qué salió mal el experimento?",
        "¿Está bien mi cálculo de la masa molar?",
        "¿Qué es el error absoluto?",
        "¿Qué tenía que traer al laboratorio?",
    ],
    "id": [
        "Apa yang salah dengan kalimat ini?",
        "Apa itu kesalahan pengukuran?",
        "Kenapa jawaban saya salah?",
        "Apa kesalahan umum dalam menyetarakan reaksi?",
        "Saya sudah belajar osmosis, tolong jelaskan lagi tekanan turgor",
        "Apakah salah membagi dengan nol?",
        "Bagaimana perkembangan embrio katak?",
        "Saya salah hitung di langkah ini, bisa dicek?",
        "Kenapa percobaannya gagal?",
        "Apakah perhitungan massa molar saya benar?",
        "Apa itu galat mutlak?",
        "Apa yang harus saya bawa ke lab?",
    ],
    "ur": [
        "خلیہ کیا ہے؟",
        "پیمائش کی غلطی کیا ہے؟",
        "میرا جواب غلط کیوں ہے؟",
        "مساوات کو متوازن کرنے کا غلط طریقہ کیا ہے؟",
        "طلبہ کسر میں کون سی عام غلطیاں کرتے ہیں؟",
        "کیا صفر سے تقسیم کرنا غلط ہے؟",
        "مینڈل نے مٹر کے پودوں سے کیا سیکھا؟",
        "میں نے پڑھا کہ خلیے تقسیم ہوتے ہیں، یہ کیسے ہوتا ہے؟",
        "تجربہ غلط کیوں ہو گیا؟",
        "کیا میرا مولر ماس کا حساب درست ہے؟",
        "مطلق غلطی کیا ہے؟",
        "مجھے لیب میں کیا لانا تھا؟",
    ],
    "ar": [
        "ما هي الخلية؟",
        "ما هو الخطأ في القياس؟",
        "لماذا إجابتي خاطئة؟",
        "ما الطريقة الخاطئة لموازنة المعادلة؟",
        "ما الأخطاء الشائعة عند الطلاب في الكسور؟",
        "هل القسمة على صفر خطأ؟",
        "ماذا تعلم مندل من نباتات البازلاء؟",
        "أخطأت في هذه الخطوة، هل يمكنك التحقق؟",
        "تعلمت أن الخلايا تنقسم، فكيف تنسخ حمضها النووي؟",
        "لماذا فشلت التجربة؟",
        "هل حسابي للكتلة المولية صحيح؟",
        "ما هو الخطأ المطلق؟",
        "ماذا كان علي أن أحضر إلى المختبر؟",
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phrasing_of_a_record_question_is_recognised(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missed = [q for q in RECORD_QUESTIONS[lang] if not is_record_question(q)]
    with capsys.disabled():
        print(
            f"\nrecord questions ({lang}): {len(RECORD_QUESTIONS[lang]) - len(missed)}/"
            f"{len(RECORD_QUESTIONS[lang])} phrasings recognised, "
            f"{sum(not is_record_question(q) for q in LOOKALIKES[lang])}/{len(LOOKALIKES[lang])} "
            "look-alikes left alone"
        )
    assert len(RECORD_QUESTIONS[lang]) >= 10
    assert missed == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_subject_question_with_the_same_words_is_not_a_record_question(lang: str) -> None:
    mistaken = [q for q in LOOKALIKES[lang] if is_record_question(q)]
    assert mistaken == []


def test_a_glued_arabic_conjunction_still_starts_a_cue() -> None:
    assert is_record_question("وأين أخطئ دائما؟")


# A statement about past study, then a request about a topic: the student asks about the
# topic, not about their record (the walkthrough's own examples, issue 13).
STUDY_THEN_REQUEST = {
    "en": "I studied osmosis yesterday, I learned a lot, can you explain it again?",
    "es": "Ayer estudié la ósmosis, ¿me la explicas otra vez?",
    "id": "Kemarin saya salah belajar osmosis, bisa jelaskan lagi?",
    "ur": "کل میں نے اوسموسس پڑھا، کیا آپ دوبارہ سمجھا سکتے ہیں؟",
    "ar": "درست أمس التناضح، هل يمكنك شرحه مرة أخرى؟",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_statement_of_past_study_before_a_request_is_not_a_record_question(lang: str) -> None:
    assert not is_record_question(STUDY_THEN_REQUEST[lang])


# --- the labelled set of everyday wordings (tests/unit/data/record_questions.jsonl) -------------

LABELLED = Path(__file__).parent / "data" / "record_questions.jsonl"
# Floors at what the rule reads (measured when the sets were written). The first two sets
# found the rule reading 28 of 60 everyday record questions and no ordinary one; adding their
# phrasings to the phrase lists overfitted (no gain on the second set, 7 of 20 ordinary read
# as record questions), the trait cue did not: 43 of 60, and on a third set written after it
# 14 of 20 (5 before); that set's two false readings ("how can I get better at drawing
# cells?") are why a request for advice is a blocker. No ordinary question may be read.
RECORD_RECALL_FLOOR = 0.70


def test_the_everyday_record_questions_are_read_no_worse_than_measured(
    measurement: Callable[[str], None],
) -> None:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines()]
    asked = [r for r in rows if r["record"]]
    read = [r for r in asked if is_record_question(r["text"])]
    mistaken = [r["text"] for r in rows if not r["record"] and is_record_question(r["text"])]
    recall = len(read) / len(asked)
    measurement(
        f"everyday record questions: {len(read)}/{len(asked)} read ({recall:.2f}), "
        f"{len(mistaken)}/{len(rows) - len(asked)} ordinary questions read as record questions"
    )
    assert {r["lang"] for r in rows} == set(LANGUAGES)
    assert mistaken == []  # no ordinary question is read as one
    assert recall >= RECORD_RECALL_FLOOR
