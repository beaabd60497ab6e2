"""The uploads bucket's key layout."""

from __future__ import annotations

import pytest

from tutor_memory.domain.episodes import Pair, check_file_id, file_id_for
from tutor_memory.domain.errors import ValidationError
from tutor_memory.usecases.uploads import parse_upload_key


def test_a_key_names_the_pair_and_the_file() -> None:
    upload = parse_upload_key("uploads/s-42/biology/Cell notes (v2).pdf")
    assert upload.pair == Pair("s-42", "biology")
    assert upload.name == "Cell notes (v2).pdf"
    assert upload.file_id == file_id_for("Cell notes (v2).pdf")
    assert upload.file_id.startswith("Cell-notes-v2-.pdf-")  # the name's slug, then its hash


def test_an_event_key_is_url_decoded() -> None:
    upload = parse_upload_key("uploads/s-42/biology/c%C3%A9lula+apuntes.md", encoded=True)
    assert upload.name == "célula apuntes.md" and upload.file_id.startswith("célula-apuntes.md-")


@pytest.mark.parametrize(
    ("key", "field", "problem"),
    [
        ("other/s-42/biology/a.pdf", "key", "is not under 'uploads/'"),
        ("uploads/s-42/a.pdf", "key", "does not follow"),
        ("uploads/s-42/biology/notes/a.pdf", "key", "does not follow"),
        ("uploads/s 42/biology/a.pdf", "student_id", "may contain only"),
    ],
)
def test_a_key_off_the_layout_is_refused_with_the_reason(
    key: str, field: str, problem: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_upload_key(key)
    assert caught.value.field == field and problem in str(caught.value)


# One name per language (en, es, id, ur, ar), as students name their files.
NAMES = {
    "en": "Cell notes.pdf",
    "es": "Apuntes de la célula.pdf",
    "id": "Catatan sel.md",
    "ur": "خلیے کے نوٹس.pdf",
    "ar": "ملاحظات الخلية.pdf",
}


@pytest.mark.parametrize("lang", sorted(NAMES))
def test_a_file_id_keeps_the_names_words_in_its_own_script(lang: str) -> None:
    name = NAMES[lang]
    file_id = file_id_for(name)
    assert check_file_id("file_id", file_id) == file_id
    assert file_id.startswith(name.rsplit(" ", 1)[0].split(" ")[0])
    assert file_id_for(name) == file_id  # the same name again: the same file, a new version


def test_a_name_that_is_already_an_id_is_its_own_id() -> None:
    assert file_id_for("cells.pdf") == "cells.pdf"
    assert file_id_for("خلية.pdf") == "خلية.pdf"


def test_different_names_never_share_a_file_id() -> None:
    long = "x" * 200
    names = [
        "a b", "a-b", "a_b", "a  b", long + "1.pdf", long + "2.pdf",
        "ملاحظات النبات.pdf", "ملاحظات الحيوان.pdf", "الخلية.pdf", "خلية.pdf", "???.pdf", "!!!.pdf",
        *NAMES.values(),
    ]  # fmt: skip
    ids = [file_id_for(n) for n in names]
    assert len(set(ids)) == len(names)
    assert all(check_file_id("file_id", i) and len(i) <= 128 for i in ids)
