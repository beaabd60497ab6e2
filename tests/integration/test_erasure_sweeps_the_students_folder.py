"""Erasing a student deletes everything in their uploads folder, and nobody else's.

An object put in the folder off the layout (``uploads/s-42/stray.md``) or under a subject the
student has no pair in was never read, but it holds the student's words: it survived the
student's erasure, which deleted each pair's folder only. And a student may be called
``default``, ``classes`` or ``T``, whose folders hold a class's files or another tenant's
(``uploads/default/classes/…``, ``uploads/T/<tenant>/classes/…``, ``uploads/T/<tenant>/…``):
erasing that student, or one of their pairs, must leave those. Cloud configuration on moto
(DynamoDB, a versioned bucket)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_erasure import BUCKET, cloud_app
from tutor_memory.bootstrap import App
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import NotFoundError
from tutor_memory.domain.tenancy import no_students
from tutor_memory.ports import FixedClock

T0 = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)
MARKER = b"zorblaxquint"


@contextmanager
def cloud(tmp_path: Path, *pairs: Pair, tenant: str = "default") -> Iterator[tuple[App, Any]]:
    """The cloud app (moto) of ``tenant``, each pair with a question said."""
    with cloud_app(tmp_path, FixedClock(T0), tenant) as (app, s3, _everything):
        for pair in pairs:
            app.episodes.add(pair, Kind.QUESTION, "What is osmosis?", at=T0)
        yield app, s3


def put(s3: Any, *keys: str) -> None:
    for key in keys:
        for draft in (b"first ", b"second "):  # two versions of each
            s3.put_object(Bucket=BUCKET, Key=key, Body=draft + MARKER)


def kept(s3: Any) -> set[str]:
    listed = s3.list_object_versions(Bucket=BUCKET)
    return {v["Key"] for v in [*listed.get("Versions", []), *listed.get("DeleteMarkers", [])]}


def test_a_students_erasure_deletes_what_lies_off_the_layout_in_their_folder(
    tmp_path: Path,
) -> None:
    with cloud(tmp_path, Pair("s-42", "biology"), Pair("s-43", "biology")) as (app, s3):
        put(
            s3,
            "uploads/s-42/biology/notes.md",
            "uploads/s-42/stray.md",  # off the layout: never read
            "uploads/s-42/history/essay.md",  # a subject without a pair
            "uploads/s-42/biology/deeper/draft.md",
            "uploads/s-43/biology/notes.md",
            "uploads/s-420/biology/notes.md",  # a student whose id begins the same
            "uploads/default/classes/7a/biology/syllabus.md",
        )
        assert app.erasing is not None
        result = app.erasing.erase_student("s-42", reason="left the school")

        assert not any(k.startswith("uploads/s-42/") for k in kept(s3))
        assert kept(s3) == {
            "uploads/s-43/biology/notes.md",
            "uploads/s-420/biology/notes.md",
            "uploads/default/classes/7a/biology/syllabus.md",
        }
        assert result.objects_deleted == 8  # two versions each of the four


def test_a_student_known_only_by_objects_no_pair_read_is_erased_not_refused(
    tmp_path: Path,
) -> None:
    with cloud(tmp_path, Pair("s-43", "biology")) as (app, s3):
        put(s3, "uploads/s-42/stray.md", "uploads/s-43/biology/notes.md")
        assert app.erasing is not None
        assert app.erasing.erase_student("s-42", reason="asked").objects_deleted == 2
        assert kept(s3) == {"uploads/s-43/biology/notes.md"}
        with pytest.raises(NotFoundError, match="no history for student 's-42'"):
            app.erasing.erase_student("s-42", reason="asked again")  # nothing left: a 404


def test_a_student_called_default_leaves_the_default_tenants_class_files(
    tmp_path: Path,
) -> None:
    with cloud(tmp_path, Pair("default", "biology"), Pair("default", "classes")) as (app, s3):
        put(
            s3,
            "uploads/default/biology/notes.md",
            "uploads/default/classes/notes.md",  # their pair "classes"'s file
            "uploads/default/stray.md",
            "uploads/default/classes/7a/biology/syllabus.md",  # class 7a's
        )
        assert app.erasing is not None
        app.erasing.erase_pair(Pair("default", "classes"), reason="asked")
        assert kept(s3) == {
            "uploads/default/biology/notes.md",
            "uploads/default/stray.md",
            "uploads/default/classes/7a/biology/syllabus.md",
        }
        app.erasing.erase_student("default", reason="asked")
        assert kept(s3) == {"uploads/default/classes/7a/biology/syllabus.md"}


def test_a_student_called_t_leaves_every_other_tenants_uploads(tmp_path: Path) -> None:
    # student "T" of the default tenant, subject "acme"
    with cloud(tmp_path, Pair("T", "acme")) as (app, s3):
        theirs = ["uploads/T/acme/notes.md", "uploads/T/stray.md"]
        acmes = [
            "uploads/T/acme/s1/biology/notes.md",  # tenant acme's student s1
            "uploads/T/acme/classes/7a/biology/syllabus.md",
            "uploads/T/acme/s1/stray.md",
        ]
        put(s3, *theirs, *acmes)
        assert app.erasing is not None
        app.erasing.erase_pair(Pair("T", "acme"), reason="asked")
        assert kept(s3) == {"uploads/T/stray.md", *acmes}
        app.erasing.erase_student("T", reason="asked")
        assert kept(s3) == set(acmes)


def test_a_student_called_classes_leaves_their_tenants_class_files(tmp_path: Path) -> None:
    with cloud(tmp_path, Pair("classes", "biology"), Pair("s1", "biology"), tenant="acme") as (
        app,
        s3,
    ):
        put(
            s3,
            "uploads/T/acme/classes/biology/notes.md",  # student "classes"'s pair's file
            "uploads/T/acme/classes/stray.md",
            "uploads/T/acme/classes/7a/biology/syllabus.md",  # class 7a's
            "uploads/T/acme/s1/biology/notes.md",
        )
        assert app.erasing is not None
        app.erasing.erase_student("classes", reason="asked")
        assert kept(s3) == {
            "uploads/T/acme/classes/7a/biology/syllabus.md",
            "uploads/T/acme/s1/biology/notes.md",
        }


def test_what_no_student_holds_is_told_in_every_tenant() -> None:
    # after the tenant's uploads prefix: the default tenant's "uploads/", acme's "uploads/T/acme/"
    assert no_students("default/classes/7a/biology/syllabus.md", "default")
    assert not no_students("default/classes/notes.md", "default")  # student default's pair
    assert no_students("T/acme/s1/biology/notes.md", "default")
    assert not no_students("T/acme/notes.md", "default")  # student T's pair acme
    assert no_students("classes/7a/biology/syllabus.md", "acme")
    assert not no_students("classes/biology/notes.md", "acme")  # student classes's pair
    assert not no_students("default/classes/7a/biology/syllabus.md", "acme")  # acme's student
