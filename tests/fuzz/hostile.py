"""Slow and broken clients, sent at `serve` while schemathesis fuzzes it (``test_fuzz.py``).

Each probe opens its own sockets and records what came back: the status of the answer, or
none (``None``: the connection closed without a status line). A probe names the statuses it
may be answered with; anything else is *undocumented*, a 5xx is a server error, and no status
where one was due is a *dropped* connection. A slow client cut off before its request is whole
may be answered 408 or closed: both are its expected outcome, never a drop.

The probes run in a process of their own (``python -m tests.fuzz.hostile``), as hostile clients
would: their thousand sockets are not the server's, nor is their interpreter's lock. The process
runs rounds until its stdin closes (or a given number), then prints its tally as JSON.

* ``trickle``: a whole request sent a byte at a time, the request line and headers, then the
  body, within the server's deadline: answered as if sent at once;
* ``stall`` (request line, body): a byte a second until long past the server's deadline:
  cut off (408, or closed), while the others are answered;
* ``hang-up`` (mid-request, mid-response): an abrupt close (RST) in the request line, in the
  body, and after a few bytes of a large answer: nothing is due, and the server's log must show
  no 500 and no traceback (``test_fuzz.py`` counts them);
* ``huge-headers``: a header of 300 KB (over waitress's 256 KB): 431 or 400;
* ``burst``: many connections at once, each a whole request: all answered;
* ``idle``: many connections opened and left silent while a request on another is answered
  (the canary), then closed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

LINGER_RST = b"\x01\x00\x00\x00\x00\x00\x00\x00"  # SO_LINGER on, 0 s: close() sends a RST
PAIR = "/pairs/hostile"  # the probes' own student: its pairs never meet the fuzz's


@dataclass
class Tally:
    """Every probe's outcomes, shared by the probe threads (guarded by ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    connections: Counter[str] = field(default_factory=Counter)  # per probe
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    cut_off: Counter[str] = field(default_factory=Counter)  # a stalled client closed unanswered
    dropped: list[str] = field(default_factory=list)
    undocumented: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    slowest_canary_s: float = 0.0

    def record(self, probe: str, status: int | None, expected: Iterable[int],
               *, may_close: bool = False) -> None:  # fmt: skip
        with self.lock:
            self.connections[probe] += 1
            if status is None:
                if may_close:
                    self.cut_off[probe] += 1
                else:
                    self.dropped.append(probe)
                return
            self.statuses[(probe, status)] += 1
            if status >= 500:
                self.server_errors.append(f"{probe}: {status}")
            elif status not in set(expected):
                self.undocumented.append(f"{probe}: {status}")

    def count(self, probe: str, n: int = 1) -> None:
        """Connections that were owed nothing (hang-ups): counted, not judged here."""
        with self.lock:
            self.connections[probe] += n

    @property
    def total(self) -> int:
        return sum(self.connections.values())

    def to_dict(self) -> dict[str, object]:
        return {
            "connections": dict(self.connections),
            "statuses": {f"{p} {s}": n for (p, s), n in sorted(self.statuses.items())},
            "cut_off": dict(self.cut_off),
            "dropped": self.dropped,
            "undocumented": self.undocumented,
            "server_errors": self.server_errors,
            "slowest_canary_s": self.slowest_canary_s,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Tally:
        tally = cls()
        tally.connections.update(data["connections"])  # type: ignore[arg-type]
        for key, n in data["statuses"].items():  # type: ignore[attr-defined]
            probe, status = key.rsplit(" ", 1)
            tally.statuses[(probe, int(status))] = n
        tally.cut_off.update(data["cut_off"])  # type: ignore[arg-type]
        tally.dropped = list(data["dropped"])  # type: ignore[call-overload]
        tally.undocumented = list(data["undocumented"])  # type: ignore[call-overload]
        tally.server_errors = list(data["server_errors"])  # type: ignore[call-overload]
        tally.slowest_canary_s = float(data["slowest_canary_s"])  # type: ignore[arg-type]
        return tally


def _status(data: bytes) -> int | None:
    if not data.startswith(b"HTTP/1.") or len(data) < 12:
        return None
    try:
        return int(data[9:12])
    except ValueError:
        return None


def _read_all(sock: socket.socket) -> bytes:
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        pass
    return data


def request(method: str, path: str, body: bytes = b"", headers: str = "") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n{headers}\r\n"
            ).encode() + body  # fmt: skip


def episode(subject: str, text: str = "What does a ribosome make?") -> tuple[str, bytes]:
    return f"{PAIR}/{subject}/episodes", json.dumps({"kind": "question", "text": text}).encode()


def ask(port: int, raw: bytes, timeout_s: float = 120) -> int | None:
    """One whole request at once; the answer's status, or None if closed without one."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
            sock.sendall(raw)
            return _status(_read_all(sock))
    except OSError:
        return None


def trickle(port: int, raw: bytes, every_s: float, timeout_s: float = 120) -> bytes:
    """``raw`` a byte every ``every_s`` seconds; what the server said (b"": closed, no word).
    Stops sending once the server has answered or closed."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
            for byte in raw:
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    break
                time.sleep(every_s)
                sock.setblocking(False)
                try:
                    early: bytes | None = sock.recv(65536)
                except BlockingIOError:
                    early = None
                except OSError:
                    early = b""
                finally:
                    sock.setblocking(True)
                if early is not None:
                    return early + _read_all(sock)
            return _read_all(sock)
    except OSError:
        return b""


def hang_up(port: int, raw: bytes, read: int = 0) -> None:
    """Send ``raw``, read ``read`` bytes of the answer (0: none), then close with a RST."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    except OSError:
        return
    try:
        sock.sendall(raw)
        if read:
            sock.recv(read)
    except OSError:
        pass
    finally:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_RST)
        sock.close()


@dataclass(frozen=True)
class Sizes:
    """How hard a round pushes: ``make fuzz`` uses :data:`FULL`, ``make test`` :data:`BOUNDED`."""

    trickles: int
    stalls: int
    hang_ups: int
    burst: int
    idle: int
    stall_s: float  # how long a stalled client keeps trickling (past the server's deadline)


FULL = Sizes(trickles=4, stalls=2, hang_ups=24, burst=200, idle=1000, stall_s=40.0)
BOUNDED = Sizes(trickles=1, stalls=2, hang_ups=6, burst=50, idle=1000, stall_s=35.0)


def _threads(targets: list[Callable[[], None]]) -> list[threading.Thread]:
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    for thread in threads:
        thread.start()
    return threads


def one_round(port: int, tally: Tally, sizes: Sizes, n: int, read_path: str) -> None:
    """Every probe once (``n`` numbers the round: its pairs are its own). ``read_path`` is a
    GET with a large answer, for the hang-ups mid-response."""
    created = (201,)

    def trickled(i: int) -> None:
        path, body = episode(f"trickle-{n}-{i}")
        said = trickle(port, request("POST", path, body), every_s=0.02)
        tally.record("trickle", _status(said), created)

    def stalled(part: str) -> None:
        path, body = episode(f"stall-{n}")
        raw = request("POST", path, body)
        head = raw[: raw.index(b"\r\n\r\n") + 4]
        # request line: from its first byte; body: the head at once, then the body's bytes
        start, rest = (b"", raw) if part == "line" else (head, raw[len(head) :])
        pace = sizes.stall_s / max(1, len(rest))
        every = max(1.0, pace)  # a byte a second (or slower): long past the deadline in all
        name = f"stall-{part}"
        said, acted = b"", False  # acted: the server answered or closed before we gave up
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
                sock.sendall(start)
                began = time.monotonic()
                for byte in rest:
                    if time.monotonic() - began > sizes.stall_s:
                        break
                    try:
                        sock.sendall(bytes([byte]))
                    except OSError:
                        acted = True
                        break
                    time.sleep(every)
                    sock.setblocking(False)
                    try:
                        said = sock.recv(65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        said = b""
                    finally:
                        sock.setblocking(True)
                    acted = True  # answered, or closed (recv gave b"")
                    break
                said += _read_all(sock) if said else b""
        except OSError:
            acted = True
        if not acted:  # still reading our bytes long past its deadline: it held a socket
            with tally.lock:
                tally.connections[name] += 1
                tally.undocumented.append(f"{name}: not cut off after {sizes.stall_s:g} s")
            return
        tally.record(name, _status(said), (408,), may_close=True)

    def hung_up() -> None:
        path, body = episode(f"hang-{n}")
        raw = request("POST", path, body)
        for i in range(sizes.hang_ups):
            where = i % 4
            if where == 0:
                hang_up(port, raw[:10])  # in the request line
            elif where == 1:
                hang_up(port, raw[: len(raw) - 5])  # in the body
            elif where == 2:
                hang_up(port, request("GET", read_path), read=16)  # mid-response
            else:
                hang_up(port, raw)  # the request whole, gone before the answer
            tally.count(("hang-up-in-line", "hang-up-in-body", "hang-up-mid-response",
                         "hang-up-before-answer")[where])  # fmt: skip

    def huge() -> None:
        raw = request("GET", read_path, headers=f"X-Padding: {'a' * 300_000}\r\n")
        tally.record("huge-headers", ask(port, raw), (431, 400))

    def burst() -> None:
        start = threading.Barrier(sizes.burst)

        def one(i: int) -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                start.wait(timeout=60)
            path = f"{PAIR}/burst-{n}-{i % 5}/chain/verify"
            tally.record("burst", ask(port, request("GET", path)), (200, 404))

        for thread in _threads([lambda i=i: one(i) for i in range(sizes.burst)]):
            thread.join(timeout=300)

    def idle() -> None:
        held: list[socket.socket] = []
        try:
            for _ in range(sizes.idle):
                try:
                    held.append(socket.create_connection(("127.0.0.1", port), timeout=30))
                except OSError:
                    break
            tally.count("idle", len(held))
            began = time.monotonic()
            status = ask(port, request("GET", f"{PAIR}/idle-{n}/chain/verify"))
            with tally.lock:
                tally.slowest_canary_s = max(tally.slowest_canary_s, time.monotonic() - began)
            tally.record("idle-canary", status, (200, 404))
        finally:
            for sock in held:
                sock.close()

    slow = _threads(
        [lambda i=i: trickled(i) for i in range(sizes.trickles)]
        + [lambda p=p: stalled(p) for p in ("line", "body")[: sizes.stalls]]
    )
    for probe in (hung_up, huge, burst, idle):
        probe()
    for thread in slow:
        thread.join(timeout=300)


def keep_at_it(port: int, tally: Tally, sizes: Sizes, read_path: str,
               stop: threading.Event, *, rounds: int | None = None) -> None:  # fmt: skip
    """Rounds of probes until ``stop`` is set (or ``rounds`` are done)."""
    n = 0
    while not stop.is_set() and (rounds is None or n < rounds):
        one_round(port, tally, sizes, n, read_path)
        n += 1


def main() -> None:
    parser = argparse.ArgumentParser(description="slow and broken clients against serve")
    parser.add_argument("port", type=int)
    parser.add_argument("read_path", help="a GET with a large answer (hang-ups mid-response)")
    parser.add_argument("--sizes", choices=("full", "bounded"), default="bounded")
    parser.add_argument("--rounds", type=int, default=0, help="0: until stdin closes")
    args = parser.parse_args()
    sizes = FULL if args.sizes == "full" else BOUNDED
    # a socket per idle connection, beside the burst's: a soft open-file limit of 1,024 is raised
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = sizes.idle + sizes.burst + 100
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, raised), hard))
    tally, stop = Tally(), threading.Event()
    probes = threading.Thread(
        target=keep_at_it,
        args=(args.port, tally, sizes, args.read_path, stop),
        kwargs={"rounds": args.rounds or None},
    )
    probes.start()
    if not args.rounds:
        sys.stdin.read()  # until the fuzz is done
        stop.set()
    probes.join()
    print(json.dumps(tally.to_dict()))


if __name__ == "__main__":
    main()
