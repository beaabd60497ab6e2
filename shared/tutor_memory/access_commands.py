"""``tutor-memory keys`` and ``tutor-memory classes``: who may call a store's ``serve`` (API
keys: made, shown once, listed, revoked) and the roster that says which students a teacher
reaches. Wired in by ``cli.py``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tutor_memory.bootstrap import App
from tutor_memory.domain.access import ApiKey, Role, SchoolClass
from tutor_memory.domain.chain import format_time
from tutor_memory.domain.profile import Aspect
from tutor_memory.usecases.classmaps import ClassIngestResult

JSON_HELP = "print the result as JSON"


def add_access_commands(subparsers: Any) -> None:
    keys = subparsers.add_parser("keys", help="API keys for serve: create, list, revoke")
    actions = keys.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="make a key (its secret is shown once)")
    create.add_argument("--tenant", default="default", help="the school or customer")
    create.add_argument(
        "--role", required=True, choices=[r.value for r in Role], help="what the key may do"
    )
    create.add_argument("--id", default="", help="the student's id (a student key) or a name")
    listed = actions.add_parser("list", help="the keys (never their secrets)")
    listed.add_argument("--tenant", help="only this tenant's")
    revoke = actions.add_parser("revoke", help="revoke a key (it is kept, marked revoked)")
    revoke.add_argument("key_id", help="the key's id (the part after tm_)")

    classes = subparsers.add_parser("classes", help="the roster: which students a teacher reaches")
    roster = classes.add_subparsers(dest="action", required=True, metavar="ACTION")
    put = roster.add_parser("set", help="create or replace a class")
    put.add_argument("class_id", help="the class's id (letters, digits, . _ @ -)")
    put.add_argument("--teacher", action="append", default=[], help="a teacher's id (repeat)")
    put.add_argument("--student", action="append", default=[], help="a student's id (repeat)")
    show = roster.add_parser("show", help="a class's teachers and students")
    show.add_argument("class_id", help="the class's id")
    ingest = roster.add_parser(
        "ingest", help="read a file into a class's course map (its students' maps follow it)"
    )
    ingest.add_argument("class_id", help="the class's id")
    ingest.add_argument("subject_id", help="the subject the file is for")
    ingest.add_argument("file", type=Path, help="a PDF, DOCX, Markdown or text file")
    ingest.add_argument("--file-id", help="the file's id (default: from its name)")
    for parser in (create, listed, revoke, put, show, ingest):
        parser.add_argument("--store", type=Path, help="an embedded store folder")
        parser.add_argument("--json", action="store_true", help=JSON_HELP)
    for parser in (put, show, ingest):
        parser.add_argument("--tenant", default="default", help="the school or customer")


def add_profile_command(subparsers: Any) -> None:
    profile = subparsers.add_parser(
        "profile", help="what holds about a student in every subject: show, set, retract"
    )
    actions = profile.add_subparsers(dest="action", required=True, metavar="ACTION")
    show = actions.add_parser(
        "show", help="the statements in force, their history, and whether the log verifies"
    )
    put = actions.add_parser("set", help="state something about the student")
    put.add_argument("aspect", choices=[a.value for a in Aspect], help="what it is about")
    put.add_argument("value", help="the statement, as a tutor should read it")
    put.add_argument("--due", help="a goal's date, YYYY-MM-DD")
    retract = actions.add_parser("retract", help="stop holding an aspect (history stays)")
    retract.add_argument("aspect", choices=[a.value for a in Aspect], help="what to forget")
    for parser in (show, put, retract):
        parser.add_argument("--student", required=True, help="the student's id")
        parser.add_argument("--store", type=Path, help="an embedded store folder")
        parser.add_argument("--json", action="store_true", help=JSON_HELP)
    for parser in (put, retract):
        parser.add_argument("--key", default="", help="which one of the aspect ('' for one)")
        parser.add_argument(
            "--by", default="service", choices=["service", "teacher", "student"],
            help="who said it (default: service)",
        )  # fmt: skip


def run_profile_command(args: argparse.Namespace, app: App) -> int:
    from datetime import date

    from tutor_memory.domain.errors import ValidationError
    from tutor_memory.domain.profile import current, line, profile_report
    from tutor_memory.usecases.export import statement_json

    profiles = app.profiles
    assert profiles is not None  # build_app always builds them
    if args.action in ("set", "retract"):
        if args.action == "set":
            try:
                due = date.fromisoformat(args.due) if args.due else None
            except ValueError:
                raise ValidationError("--due", "must be a date, YYYY-MM-DD") from None
            done = profiles.set(
                args.student, args.aspect, args.value, key=args.key, due=due, said_by=args.by
            )
        else:
            done = profiles.retract(args.student, args.aspect, key=args.key, said_by=args.by)
        if args.json:
            print(json.dumps(statement_json(done), ensure_ascii=False))
        else:
            what = "retracted" if done.retracts else "set"
            print(f"statement {done.seq}: {done.aspect.value} {what}")
        return 0
    said = profiles.history(args.student)
    broken = profiles.verify(args.student, said)
    now = app.ports.clock.now()
    if args.json:
        print(
            json.dumps(
                {
                    "current": [statement_json(s) for s in current(said)],
                    "history": [statement_json(s) for s in said],
                    "intact": broken is None,
                    "report": profile_report(said, broken),
                },
                ensure_ascii=False,
            )
        )
    else:
        for s in current(said):
            print(line(s, now=now))
        if not said:
            print(f"nothing is held about {args.student}")
        else:  # as `verify` says it of a pair's chain
            print(f"log: {profile_report(said, broken)}")
    return 0 if broken is None else 1


def check_key_request(args: argparse.Namespace) -> None:
    """Refuse a key the store could not make before a store is made for it: a student's or a
    teacher's key names whom it is for."""
    creating = args.command == "keys" and args.action == "create"
    if creating and Role(args.role) is not Role.SERVICE and not args.id.strip():
        from tutor_memory.domain.errors import ValidationError

        raise ValidationError("--id", f"a {args.role} key needs --id (the {args.role}'s id)")


def run_keys_command(args: argparse.Namespace, app: App) -> int:
    access = app.access
    if args.action == "create":
        key, secret = access.create_key(args.tenant, Role(args.role), args.id)
        if args.json:
            print(json.dumps({**_key_json(key), "key": secret}, ensure_ascii=False))
        else:
            print(secret)
            print(f"# {key.caller}; shown once: keep it where a password is kept", flush=True)
        return 0
    if args.action == "revoke":
        access.revoke_key(args.key_id)
        print(json.dumps({"revoked": args.key_id}) if args.json else f"revoked {args.key_id}")
        return 0
    for key in access.keys(args.tenant):
        if args.json:
            print(json.dumps(_key_json(key), ensure_ascii=False))
        else:
            state = "revoked " + format_time(key.revoked_at) if key.revoked_at else "active"
            print(f"{key.key_id}  {key.caller}  created {format_time(key.created_at)}  {state}")
    return 0


def run_classes_command(args: argparse.Namespace, app: App) -> int:
    if args.action == "ingest":
        return _ingest_class(args, app)
    if args.action == "set":
        done = app.access.set_class(args.tenant, args.class_id, args.teacher, args.student)
        if done.tenant == app.access.tenant:  # this store's students follow its course maps
            app.class_maps.enrol(done.class_id, done.students)
    else:
        done = app.access.get_class(args.tenant, args.class_id)
    if args.json:
        print(json.dumps(_class_json(done), ensure_ascii=False))
    else:
        print(f"class {done.class_id} of {done.tenant}")
        print(f"  teachers: {', '.join(done.teachers) or '(none)'}")
        print(f"  students: {', '.join(done.students) or '(none)'}")
    return 0


def _ingest_class(args: argparse.Namespace, app: App) -> int:
    from tutor_memory.adapters.file_readers import read_upload
    from tutor_memory.domain.access import Caller
    from tutor_memory.domain.episodes import file_id_for

    app.access.check_class(Caller(args.tenant, Role.SERVICE, "cli"), args.class_id)
    data = read_upload(args.file)
    name = args.file.name
    done = app.class_maps.ingest(
        args.class_id, args.subject_id, args.file_id or file_id_for(name), name, data
    )
    if args.json:
        print(json.dumps(class_ingest_json(done), ensure_ascii=False))
    elif done.already_read:
        print(f"{name}: already read for class {done.class_id}; "
              f"{done.students_updated} students' maps brought up to date")  # fmt: skip
    else:
        print(f"{name}: {len(done.concepts)} concepts into the course map of "
              f"{done.class_id}/{done.subject_id} (version {done.course_version}); "
              f"{done.students_updated} students' maps follow it")  # fmt: skip
    return 0


def class_ingest_json(done: ClassIngestResult) -> dict[str, Any]:
    return {
        "class_id": done.class_id,
        "subject_id": done.subject_id,
        "file_id": done.file_id,
        "already_read": done.already_read,
        "concepts": list(done.concepts),
        "rejected": [list(r) for r in done.rejected],
        "course_version": done.course_version,
        "students_updated": done.students_updated,
    }


def _key_json(key: ApiKey) -> dict[str, Any]:
    return {
        "key_id": key.key_id,
        "tenant": key.caller.tenant,
        "role": key.caller.role.value,
        "id": key.caller.id,
        "created_at": format_time(key.created_at),
        "revoked_at": None if key.revoked_at is None else format_time(key.revoked_at),
    }


def _class_json(c: SchoolClass) -> dict[str, Any]:
    return {
        "tenant": c.tenant,
        "class_id": c.class_id,
        "teachers": list(c.teachers),
        "students": list(c.students),
    }
