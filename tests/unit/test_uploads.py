"""The uploads bucket's key layout."""

from __future__ import annotations

import pytest

from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ValidationError
from tutor_memory.uploads import parse_upload_key


def test_a_key_names_the_pair_and_the_file() -> None:
    upload = parse_upload_key("uploads/s-42/biology/Cell notes (v2).pdf")
    assert upload.pair == Pair("s-42", "biology")
    assert upload.name == "Cell notes (v2).pdf"
    assert upload.file_id == "Cell-notes-v2-.pdf"


def test_an_event_key_is_url_decoded() -> None:
    upload = parse_upload_key("uploads/s-42/biology/c%C3%A9lula+apuntes.md", encoded=True)
    assert upload.name == "célula apuntes.md" and upload.file_id == "c-lula-apuntes.md"


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
