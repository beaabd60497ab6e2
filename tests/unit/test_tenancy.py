"""Where a tenant's keys live (domain/tenancy.py): the default tenant's as before tenants, every
other's behind a prefix no default key begins with."""

from __future__ import annotations

import pytest

from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.tenancy import (
    check_tenant,
    class_path_prefix,
    index_name,
    key_prefix,
    path_prefix,
    tenant_of_path,
)
from tutor_memory.settings import Settings
from tutor_memory.usecases.uploads import tenant_of_upload_key


def test_the_default_tenant_keeps_its_keys_and_another_tenants_begin_with_it() -> None:
    assert (key_prefix("default"), path_prefix("default"), class_path_prefix("default")) == (
        "",
        "",
        "",
    )
    assert (key_prefix("acme"), path_prefix("acme"), class_path_prefix("acme")) == (
        "T#acme#",
        "T/acme/",
        "T/",
    )
    assert index_name("episodes", "default") == "episodes"
    assert index_name("episodes", "acme") == "episodes-t-acme"
    # index names are lower case: two tenants told apart by capitals get two indexes
    assert index_name("episodes", "Acme") != index_name("episodes", "acme")
    assert index_name("episodes", "Acme").startswith("episodes-t-acme-")


@pytest.mark.parametrize("bad", ["", "a/b", "a#b", "a*", "a?", "-x", "x" * 129, "é"])
def test_a_name_that_could_reach_into_a_key_or_a_policy_is_no_tenant(bad: str) -> None:
    with pytest.raises(ValidationError):
        check_tenant(bad)
    with pytest.raises(ValidationError):
        key_prefix(bad)


def test_an_uploads_key_says_whose_it_is() -> None:
    assert tenant_of_path("s-42/biology/cells.pdf") == "default"
    assert tenant_of_path("default/classes/7a/biology/s.pdf") == "default"
    assert tenant_of_path("T/acme/s-42/biology/cells.pdf") == "acme"
    assert tenant_of_upload_key("uploads/T/acme/classes/7a/b/s.pdf", "uploads/") == "acme"
    assert tenant_of_upload_key("uploads/T%2Facme/x", "uploads/") == "acme"  # as events send it
    with pytest.raises(ValidationError):
        tenant_of_upload_key("uploads/T/-x/s/b/f", "uploads/")


def test_the_settings_open_a_deployment_for_a_tenant() -> None:
    settings = Settings(uploads_prefix="uploads/")
    acme = settings.for_tenant("acme")
    assert (acme.tenant, settings.tenant) == ("acme", "default")
    assert (settings.tenant_uploads_prefix, settings.class_uploads_prefix) == (
        "uploads/",
        "uploads/",
    )
    assert (acme.tenant_uploads_prefix, acme.class_uploads_prefix) == (
        "uploads/T/acme/",
        "uploads/T/",
    )
    with pytest.raises(ValidationError):
        settings.for_tenant("a/b")
