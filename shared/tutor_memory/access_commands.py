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
    for parser in (create, listed, revoke, put, show):
        parser.add_argument("--store", type=Path, help="an embedded store folder")
        parser.add_argument("--json", action="store_true", help=JSON_HELP)
    for parser in (put, show):
        parser.add_argument("--tenant", default="default", help="the school or customer")


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
    if args.action == "set":
        done = app.access.set_class(args.tenant, args.class_id, args.teacher, args.student)
    else:
        done = app.access.get_class(args.tenant, args.class_id)
    if args.json:
        print(json.dumps(_class_json(done), ensure_ascii=False))
    else:
        print(f"class {done.class_id} of {done.tenant}")
        print(f"  teachers: {', '.join(done.teachers) or '(none)'}")
        print(f"  students: {', '.join(done.students) or '(none)'}")
    return 0


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
