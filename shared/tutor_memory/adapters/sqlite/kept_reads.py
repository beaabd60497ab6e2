"""The turn path's reads of the embedded store: episodes decoded once and kept, and per pair a
view of what the turn reads that only grows on append (see ``pair_view``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from tutor_memory.adapters.pair_view import Links, Newest, PairView, merge_links, merge_newest
from tutor_memory.adapters.records import episode_from_record
from tutor_memory.adapters.sqlite.connection import _EPISODE_COLUMNS, SqliteConnection
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.episodes import Episode, Pair

_K = TypeVar("_K")
_V = TypeVar("_V")


class SqliteKeptReads(SqliteConnection):
    """Decoded episodes and pair views, kept between reads while they are still true."""

    def _select_decoded(self, where: str, params: tuple[Any, ...]) -> list[Episode]:
        """``_select`` for the turn path: the rows' keys and hashes first (two columns), then
        only the rows not decoded before. Episodes are append-only, so a decoded one stays
        true; the hash is compared anyway (a row rewritten behind our back is read afresh).
        Chain verification never reads through here: it must see the rows as they are."""
        with self._connection() as conn:
            keys = conn.execute(
                f"SELECT student_id, subject_id, seq, hash, erased FROM episodes WHERE {where}",
                params,
            ).fetchall()
            cache = self._decoded
            with self._decoded_lock:
                hits = {}
                # An erasure keeps the hash (the envelope) but not the body: compare both, so
                # an erasure by another process is never served from this one's cache.
                for student, subject, seq, digest, erased in keys:
                    hit = cache.get((student, subject, seq))
                    if hit is not None and hit.hash == digest and hit.erased == bool(erased):
                        hits[(student, subject, seq)] = hit
            missing = [k for k in keys if (k[0], k[1], k[2]) not in hits]
            for start in range(0, len(missing), 500):  # SQLite's parameter limit
                chunk = missing[start : start + 500]
                rows = conn.execute(
                    f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE student_id = ? AND "
                    f"subject_id = ? AND seq IN ({', '.join('?' * len(chunk))})",
                    (chunk[0][0], chunk[0][1], *(k[2] for k in chunk)),
                ).fetchall()
                for r in rows:
                    hits[(r[0], r[1], r[2])] = episode_from_record(dict(r))
        out = []
        with self._decoded_lock:
            for student, subject, seq, _digest, _erased in keys:
                key = (student, subject, seq)
                episode = hits.get(key)
                if episode is None:  # gone between the two reads (an erased pair)
                    continue
                cache[key] = episode
                cache.move_to_end(key)
                out.append(episode)
            while len(cache) > C.DECODED_EPISODE_CACHE:
                cache.popitem(last=False)
        return out

    # --- the turn's kept reads (see pair_view) ------------------------------------------------

    def _view(self, conn: sqlite3.Connection, pair: Pair) -> PairView | None:
        """The pair's view, brought up to the chain head (one indexed read, and the new
        episodes' times when there are any); None for a pair without a log."""
        key = (pair.student_id, pair.subject_id)
        head = conn.execute(
            "SELECT seq, erasure_head FROM chain_heads WHERE student_id = ? AND subject_id = ?",
            key,
        ).fetchone()
        with self._decoded_lock:
            view = self._views.get(key)
            if head is None:
                self._views.pop(key, None)
                return None
            seq, erasure = int(head[0]), head[1]
            if view is not None and view.stale(seq, erasure):
                view = None
            if view is None:  # nothing decoded before is trusted without its row's check
                for gone in [k for k in self._decoded if k[0] == key[0] and k[1] == key[1]]:
                    del self._decoded[gone]
            elif view.seq == seq:
                self._views.move_to_end(key)
                return view
        if view is None:
            # The earliest and latest times by the time index (two index probes); as text, so a
            # row whose time sorts differently as text than as a time is caught.
            first, last = (
                conn.execute(
                    f"SELECT {fn}(at) FROM episodes WHERE student_id = ? AND subject_id = ?", key
                ).fetchone()[0]
                for fn in ("MIN", "MAX")
            )
            fresh = PairView(erasure, 0, None, None)
            view = fresh.widened(seq, *_times(first, last), ordered=_canonical(last))
        else:
            first, last, upto = conn.execute(
                "SELECT MIN(at), MAX(at), MAX(seq) FROM episodes WHERE student_id = ? "
                "AND subject_id = ? AND seq > ?",
                (*key, view.seq),
            ).fetchone()
            view = view.widened(max(seq, upto or 0), *_times(first, last), ordered=_canonical(last))
        with self._decoded_lock:
            current = self._views.get(key)
            if current is None or current.erasure != view.erasure or current.seq <= view.seq:
                self._views[key] = view
                self._views.move_to_end(key)
                while len(self._views) > C.KEPT_PAIR_VIEWS:  # memory follows the active pairs
                    self._views.popitem(last=False)
        return view

    def _keep(self, pair: Pair, view: PairView, answers: dict[_K, _V], key: _K, value: _V) -> None:
        """Keep an answer read for ``view`` (in one of its tables) if it is still the pair's."""
        with self._decoded_lock:
            if self._views.get((pair.student_id, pair.subject_id)) is view:
                answers[key] = value

    def _newest(self, pair: Pair, view: PairView, limit: int) -> list[Episode]:
        """The pair's ``limit`` newest episodes (time, then seq), kept between calls: only the
        episodes after the kept sequence are read (all of them again past ``limit`` new)."""
        key = (pair.student_id, pair.subject_id)
        kept = view.newest.get(limit)
        if kept is not None and kept.through == view.seq:
            return kept.episodes
        if kept is None or view.seq - kept.through > limit:
            episodes = self._select_decoded(
                "student_id = ? AND subject_id = ? ORDER BY at DESC, seq DESC LIMIT ?",
                (*key, limit),
            )
            kept = Newest(episodes, view.seq)  # the store's order, as the merge keeps it
        else:
            new = self._select_decoded(
                "student_id = ? AND subject_id = ? AND seq > ? ORDER BY seq", (*key, kept.through)
            )
            kept = Newest(merge_newest(kept.episodes, new, limit), view.seq)
        self._keep(pair, view, view.newest, limit, kept)
        return kept.episodes

    def _links(
        self, conn: sqlite3.Connection, pair: Pair, view: PairView, concept: str, newest: int
    ) -> list[int]:
        """A concept's ``newest`` linked sequences, newest first; only links after the kept
        sequence are read (a link is written with its episode and goes only with an erasure)."""
        kept = view.links.get((concept, newest))
        if kept is not None and kept.through == view.seq:
            return kept.seqs
        after = kept.through if kept is not None else 0
        rows = conn.execute(
            "SELECT seq FROM episode_concepts WHERE student_id = ? AND subject_id = ? "
            "AND concept_key = ? AND seq > ? ORDER BY seq DESC LIMIT ?",
            (pair.student_id, pair.subject_id, concept, after, newest),
        ).fetchall()
        seqs = merge_links(kept.seqs if kept is not None else (), (r[0] for r in rows), newest)
        self._keep(pair, view, view.links, (concept, newest), Links(seqs, view.seq))
        return seqs

    def _at_seqs(self, pair: Pair, view: PairView | None, seqs: Sequence[int]) -> list[Episode]:
        """The episodes at ``seqs`` (in that order, unknown ones left out): decoded ones from
        memory while ``view`` is current (nothing was erased since they were read), the rest
        (all of them without a view) read, each row checked against its decoded copy."""
        student, subject = pair.student_id, pair.subject_id
        cache = self._decoded
        found: dict[int, Episode] = {}
        with self._decoded_lock:
            if view is not None and self._views.get((student, subject)) is view:
                for seq in seqs:
                    hit = cache.get((student, subject, seq))
                    if hit is not None:
                        cache.move_to_end((student, subject, seq))
                        found[seq] = hit
        missing = sorted({s for s in seqs if s not in found})
        for start in range(0, len(missing), 500):  # SQLite's parameter limit
            chunk = missing[start : start + 500]
            for e in self._select_decoded(
                f"student_id = ? AND subject_id = ? AND seq IN ({', '.join('?' * len(chunk))})",
                (student, subject, *chunk),
            ):
                found[e.seq] = e
        return [found[s] for s in seqs if s in found]


def _canonical(text: str | None) -> bool:
    """The stored time is in ``format_time``'s form (so it sorts as text as it does as a time)."""
    if text is None:
        return True
    try:
        return format_time(parse_time(text)) == text
    except ValueError:
        return False


def _times(first: str | None, last: str | None) -> tuple[datetime | None, datetime | None]:
    return (
        parse_time(first) if first is not None else None,
        parse_time(last) if last is not None else None,
    )
