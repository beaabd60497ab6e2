"""Where a tenant's records live in the cloud stores: every key begins with the tenant.

A store made before tenants holds the ``default`` tenant's records, and they keep the keys they
were written under (nothing is rewritten): the default tenant's keys are unprefixed, every other
tenant's begin with ``T#<tenant>#`` (DynamoDB partition keys), ``T/<tenant>/`` (S3 keys, under the
bucket's prefix) or name an index of its own (OpenSearch). No key the default tenant writes
begins with ``T#`` (its partition keys start ``PAIR#``, ``CLASS#``, ``ACTIVE#``, ``STUDENT#``,
``PROFILE#``, ``ROSTER``, ``TEACHER#``, ``READS``), nor, unless a default-tenant student is
called ``T``, with ``T/`` (its S3 keys start with a student id or ``default/classes/``): a policy
can give the default tenant everything but those.

Pure: no I/O. The IAM policies that hold credentials to these prefixes are in template.yaml.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

from tutor_memory.domain.errors import ValidationError

DEFAULT_TENANT: Final = "default"
KEY_MARK: Final = "T#"  # DynamoDB: T#<tenant>#<the default tenant's key>
PATH_MARK: Final = "T/"  # S3: <prefix>T/<tenant>/<the default tenant's key after the prefix>
# What a tenant may be called (settings, claims, keys): no "#", "/" or IAM wildcard ("*", "?")
# can enter a key or a policy variable's value.
TENANT_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9._@-]*$"
TENANT_MAX: Final = 128
_TENANT = re.compile(TENANT_PATTERN)


def check_tenant(tenant: str) -> str:
    """The tenant, if it can name one (else a ValidationError: a 4xx at every door)."""
    if not isinstance(tenant, str) or len(tenant) > TENANT_MAX or not _TENANT.match(tenant):
        raise ValidationError(
            "tenant", f"must match {TENANT_PATTERN} and be at most {TENANT_MAX} characters"
        )
    return tenant


def key_prefix(tenant: str) -> str:
    """What every DynamoDB partition key of the tenant begins with."""
    return "" if tenant == DEFAULT_TENANT else f"{KEY_MARK}{check_tenant(tenant)}#"


def path_prefix(tenant: str) -> str:
    """What every S3 key of the tenant begins with, after the bucket's prefix (uploads/…)."""
    return "" if tenant == DEFAULT_TENANT else f"{PATH_MARK}{check_tenant(tenant)}/"


def class_path_prefix(tenant: str) -> str:
    """What a class upload's key begins with, after the bucket's prefix, before
    ``<tenant>/classes/…``: so that a tenant's class files lie under its own prefix too
    (``uploads/T/<tenant>/classes/…``; the default tenant's ``uploads/default/classes/…``)."""
    return "" if tenant == DEFAULT_TENANT else PATH_MARK


CLASSES: Final = "classes"  # <tenant>/classes/<class>/<subject>/<file>: a class's upload


def no_students(rest: str, tenant: str) -> bool:
    """Whether the object at ``rest`` (its key after the tenant's uploads prefix) is no
    student's, though a student's folder may hold it: a class's file (the default tenant's
    lie under ``default/classes/``, another tenant's under ``classes/``) or, beside the
    default tenant's students, another tenant's (``T/…``). A student called ``default``,
    ``classes`` or ``T`` has a folder of that name: erasing the student (or a pair of theirs)
    deletes their own objects there and spares these."""
    parts = rest.split("/")
    if tenant == DEFAULT_TENANT:
        classes = len(parts) == 5 and parts[0] == DEFAULT_TENANT and parts[1] == CLASSES
        # T/<x>/<file> is student T's pair x's; a tenant's own keys are longer
        return classes or (rest.startswith(PATH_MARK) and len(parts) > 3)
    return len(parts) == 4 and parts[0] == CLASSES


def tenant_of_path(rest: str) -> str:
    """The tenant an S3 key (after the bucket's prefix) belongs to."""
    if rest.startswith(PATH_MARK):
        return check_tenant(rest[len(PATH_MARK) :].split("/", 1)[0])
    return DEFAULT_TENANT


def index_name(base: str, tenant: str) -> str:
    """The tenant's OpenSearch index: the base index for the default tenant, else one of its
    own (``<base>-t-<tenant, lower case>``, with a digest of the name when it had capitals, as
    index names are lower case and two tenants must not share one).

    One index per tenant rather than a tenant field in a shared index: an index is what IAM
    can name (a managed domain's ``es:ESHttp*`` on ``domain/<name>/<index>/*``; an OpenSearch
    Serverless data access policy's ``index/<collection>/<index>``), so credentials scoped to
    a tenant are refused another tenant's documents, while a filter on a field would hold only
    as long as every query remembered to add it. A tenant's index is created on its first use
    (``OpenSearchIndex.ensure_index``)."""
    if tenant == DEFAULT_TENANT:
        return base
    return f"{base}-t-{index_suffix(tenant)}"


def index_suffix(tenant: str) -> str:
    """The tenant's part of its index name: the name in lower case, with a digest of it when
    it had capitals. A tenant's credentials carry it as a session tag of its own
    (``tenant_index``), since IAM cannot lower a tag's case in a policy's resource."""
    name = check_tenant(tenant).lower()
    if name != tenant:
        name += "-" + hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:8]
    return name
