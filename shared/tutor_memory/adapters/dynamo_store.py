"""The cloud store at its first import path: the store itself is the package
:mod:`tutor_memory.adapters.dynamo`, one module per store port."""

from __future__ import annotations

from tutor_memory.adapters.dynamo import DynamoStore
from tutor_memory.adapters.dynamo.models import Models
from tutor_memory.adapters.dynamo.table import (
    BATCH_GET_KEYS,
    EMPTY_BODY,
    EPISODE_FIELDS,
    ERASED_KEY,
    SEALED_FIELDS,
    Together,
    episode_sk,
    pair_key,
    together,
)

__all__ = [
    "BATCH_GET_KEYS",
    "EMPTY_BODY",
    "EPISODE_FIELDS",
    "ERASED_KEY",
    "SEALED_FIELDS",
    "DynamoStore",
    "Models",
    "Together",
    "episode_sk",
    "pair_key",
    "together",
]
