"""An HTTP client for SPARQL servers that never waits longer than it was told.

:class:`HttpClient` sends one request (urllib), with HTTP Basic or Digest
auth, whichever the server asks for, and credentials that never appear in
messages. Every request has a deadline (connect, each read, and in all,
retries included; a command can set one more over all its requests),
enforced on every socket operation, so a server that never answers or
drips a byte now and then is given up on in time. Transient failures
(connection refused or reset, timeouts, HTTP 5xx other than 501) are
retried with exponential backoff while time remains; a refusal becomes a
one-line :class:`HttpRefused` (a :class:`kg.errors.StoreError`) with the
server's reason. :func:`check_endpoint` and :func:`public_url` check and
show URLs without their secrets.
"""
from __future__ import annotations

import http.client
import io
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Literal, cast

from kg.errors import StoreError
from kg.util.safetext import UNPRINTABLE, one_line

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

__all__ = ["HttpClient", "HttpRefused", "Timeouts", "check_endpoint", "public_url"]

_USER_AGENT = "kg (https://w3id.org/paper-kg)"
#: the largest answer kg reads from a server, by default (``--max-response`` sets it)
MAX_RESPONSE = 512 << 20
_CHUNK = 1 << 20


def public_url(url: str) -> str:
    """``url`` without user info or query string (never show credentials).

    Also safe on URLs :func:`urllib.parse.urlsplit` cannot read.

    >>> public_url("http://bob:pw@host:8890/sparql?access-token=t")
    'http://host:8890/sparql'
    >>> public_url("http://bob:pw@[::1/sparql?t=x")
    'http://[::1/sparql'
    """
    try:
        p = urllib.parse.urlsplit(url)
        host = p.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        if p.port:
            host = f"{host}:{p.port}"
        return urllib.parse.urlunsplit((p.scheme, host, p.path, "", ""))
    except ValueError:  # a malformed URL: strip what could be a secret by hand
        text = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@", r"\1", url)
        return one_line(re.split(r"[?#]", text, maxsplit=1)[0], 120)


def check_endpoint(url: str, what: str = "endpoint") -> str:
    """``url`` if it is an http(s) URL with a host and a valid port; else a one-line StoreError.

    The message shows the URL without user info or query string.

    >>> check_endpoint("http://localhost:8890/sparql")
    'http://localhost:8890/sparql'
    >>> check_endpoint("http://localhost:99999/sparql")
    Traceback (most recent call last):
    ...
    kg.errors.StoreError: not a valid endpoint URL 'http://localhost:99999/sparql': port out of range 0-65535
    """
    shown = public_url(url)
    if not isinstance(url, str) or not url.strip():
        raise StoreError(f"no {what} URL given")
    if UNPRINTABLE.search(url) or " " in url.strip():
        raise StoreError(f"not a valid {what} URL {shown!r}: it holds spaces or control characters")
    try:
        p = urllib.parse.urlsplit(url.strip())
        port = p.port
    except ValueError as exc:
        raise StoreError(f"not a valid {what} URL {shown!r}: {one_line(str(exc)).lower()}") from None
    if p.scheme.lower() not in ("http", "https"):
        why = "no http:// or https:// at the start" if "://" not in url else \
            f"kg speaks http and https, not {p.scheme or '(none)'}"
        raise StoreError(f"not a valid {what} URL {shown!r}: {why}")
    if not p.hostname:
        raise StoreError(f"not a valid {what} URL {shown!r}: no host name")
    if ":" not in p.hostname and not _HOST.fullmatch(p.hostname):
        raise StoreError(f"not a valid {what} URL {shown!r}: {p.hostname!r} is no host name")
    if port == 0:
        raise StoreError(f"not a valid {what} URL {shown!r}: port 0")
    return url.strip()


#: a host name (letters, digits, dots, hyphens, underscores; IPv6 literals are apart)
_HOST = re.compile(r"[\w.-]+")


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, urllib.error.HTTPError):
        return exc.code in (500, 502, 503, 504, 429)
    if isinstance(exc, urllib.error.URLError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    return isinstance(exc, (ConnectionError, socket.timeout, TimeoutError,
                            http.client.RemoteDisconnected, http.client.IncompleteRead))


def _not_transient_500(body: str) -> bool:
    """A 500 that is really the server rejecting the request (Virtuoso answers syntax errors so)."""
    return bool(re.search(r"\b(37000|42000|22023|SP0\d\d|syntax|parse error)", body, re.I))


@dataclass(frozen=True)
class Timeouts:
    """How long kg waits for a server, in seconds.

    ``connect``: for a connection; ``read``: for the server's next bytes
    (``None``: as long as ``total`` allows, for queries the server computes
    in silence); ``total``: for one request with all its retries, body
    included. A deadline for a whole command is given apart (see :class:`HttpClient`).
    """

    connect: float = 30.0
    read: float | None = 30.0
    total: float = 300.0


class _Clock:
    """The deadline of one HTTP attempt, and what it was doing when time ran out."""

    def __init__(self, deadline: float, timeouts: Timeouts) -> None:
        self.deadline, self.timeouts, self.phase = deadline, timeouts, "connect"

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def arm(self, sock: socket.socket) -> None:
        """Set ``sock``'s timeout for the next operation; raise when the deadline has passed."""
        left = self.remaining()
        if left <= 0:
            raise _Expired()
        per = self.timeouts.read
        sock.settimeout(left if per is None else min(per, left))

    def connect_timeout(self) -> float:
        left = self.remaining()
        if left <= 0:
            raise _Expired()
        return min(self.timeouts.connect, left)


class _Expired(socket.timeout):
    """The overall deadline passed (raised before a socket operation)."""


class _DeadlineReader(io.RawIOBase):
    """A socket's read side that re-arms the socket's timeout before every read."""

    def __init__(self, sock: socket.socket, clock: _Clock) -> None:
        self._sock, self._clock = sock, clock
        self._io = sock.makefile("rb", buffering=0)  # holds the socket open, as http.client expects

    def readable(self) -> bool:
        return True

    def readinto(self, b: WriteableBuffer) -> int | None:
        self._clock.arm(self._sock)
        self._clock.phase = "read"
        return self._io.readinto(b)

    def close(self) -> None:
        if not self.closed:
            self._io.close()
        super().close()


class _DeadlineSocket:
    """A connected socket whose every send and read is bounded by a :class:`_Clock`."""

    def __init__(self, sock: socket.socket, clock: _Clock) -> None:
        self._sock, self._clock = sock, clock

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def sendall(self, data: ReadableBuffer) -> None:
        view = memoryview(data)
        self._clock.phase = "send"
        for i in range(0, len(view), 65536):
            self._clock.arm(self._sock)
            self._sock.sendall(view[i:i + 65536])
        self._clock.phase = "wait"

    def makefile(self, mode: str = "r", *args: Any, **kwargs: Any) -> IO[Any]:
        if "b" not in mode or "w" in mode:
            # typeshed's overloads take only literal modes; this passes any mode on
            f: IO[Any] = self._sock.makefile(mode, *args, **kwargs)  # type: ignore[call-overload]
            return f
        return io.BufferedReader(_DeadlineReader(self._sock, self._clock))


def _deadline_handlers(holder: HttpClient) -> list[urllib.request.BaseHandler]:
    """urllib handlers whose connections obey ``holder.clock`` (connect, read and total)."""

    class Connection(http.client.HTTPConnection):
        def connect(self) -> None:
            clock = holder.clock
            clock.phase = "connect"
            self.timeout = clock.connect_timeout()
            super().connect()  # HTTPSConnection.connect in SecureConnection
            # a stand-in for the socket, duck-typed (http.client declares a socket)
            self.sock = cast(socket.socket, _DeadlineSocket(self.sock, clock))
            clock.phase = "send"

    class SecureConnection(Connection, http.client.HTTPSConnection):
        pass

    http_conn, https_conn = Connection, SecureConnection

    class Handler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(http_conn, req)

    class SecureHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            # (private attributes of HTTPSHandler; _check_hostname on Python < 3.12 only)
            check_hostname = getattr(self, "_check_hostname", None)
            extra = {"check_hostname": check_hostname} if check_hostname is not None else {}
            return self.do_open(https_conn, req, context=getattr(self, "_context", None), **extra)

    return [Handler(), SecureHandler()]


class HttpClient:
    """One endpoint family's HTTP client: auth, deadlines, retries, error translation.

    Every request ends within ``timeouts.total`` seconds, retries included,
    and never after ``deadline`` (a :func:`time.monotonic` instant for the
    whole command), whatever the server does: a socket timeout alone bounds
    each read, not a server that sends a byte now and then.
    """

    def __init__(self, user: str | None, password: str | None, timeouts: Timeouts,
                 retries: int, backoff: float, sleep: Callable[[float], None] = time.sleep,
                 deadline: float | None = None, max_body: int = MAX_RESPONSE):
        handlers = _deadline_handlers(self)
        if user is not None:
            mgr = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            self._mgr = mgr
            handlers += [urllib.request.HTTPDigestAuthHandler(mgr),
                         urllib.request.HTTPBasicAuthHandler(mgr)]
        self._user, self._password = user, password
        self._opener = urllib.request.build_opener(*handlers)
        self.timeouts, self.retries, self.backoff, self._sleep = timeouts, retries, backoff, sleep
        self.deadline = deadline
        self.max_body = max_body
        self.limit = timeouts.total  # the limit the user set, for messages
        self.clock = _Clock(time.monotonic() + timeouts.total, timeouts)

    def fork(self) -> HttpClient:
        """A client with the same credentials, limits and deadline, for another thread."""
        return HttpClient(self._user, self._password, self.timeouts, self.retries, self.backoff,
                          self._sleep, self.deadline, self.max_body)

    def _redact(self, text: str) -> str:
        if self._password:
            text = text.replace(self._password, "***")
        return text

    def request(self, method: str, url: str, body: bytes | None, headers: Mapping[str, str],
                what: str, *, total: float | None = None, retries: int | None = None,
                read: float | None | Literal["default"] = "default") -> tuple[int, str, bytes]:
        """Send, retrying transient failures; returns (status, content type, body)."""
        if self._user is not None:
            self._mgr.add_password(None, url, self._user, self._password or "")
        where = public_url(url)
        start = time.monotonic()
        limit = self.timeouts.total if total is None else total
        end = start + limit
        if self.deadline is not None:
            end = min(end, self.deadline)
        timeouts = self.timeouts if read == "default" else Timeouts(
            self.timeouts.connect, read, self.timeouts.total)
        retries = self.retries if retries is None else retries
        attempt = 0
        while True:
            self.clock = clock = _Clock(end, timeouts)
            req = urllib.request.Request(url, data=body, method=method,
                                         headers={"User-Agent": _USER_AGENT, **headers})
            try:
                if clock.remaining() <= 0:
                    raise _Expired()
                with self._opener.open(req, timeout=clock.connect_timeout()) as resp:
                    data = _read_capped(resp, self.max_body, clock, where, what)
                    return resp.status, resp.headers.get("Content-Type", ""), data
            except urllib.error.HTTPError as exc:
                try:
                    text = self._redact(_read_error(exc))
                finally:
                    exc.close()
                retry = (_transient(exc) and not (exc.code == 500 and _not_transient_500(text)))
                if not (retry and attempt < retries and self._pause(attempt, end)):
                    raise HttpRefused(exc.code, where, what, text) from None
            except ValueError:  # urllib: the auth handlers gave up on the server's challenge
                raise HttpRefused(401, where, what, "") from None
            except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
                reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
                if isinstance(reason, socket.timeout) or isinstance(exc, socket.timeout):
                    if time.monotonic() >= end - 0.05 or isinstance(reason, _Expired):
                        raise self._expired(where, what, time.monotonic() - start, attempt) \
                            from None
                    message = (f"{where}: could not connect within {timeouts.connect:g} s"
                               if clock.phase == "connect" else
                               f"{where}: the server sent nothing for "
                               f"{timeouts.read:g} s while kg waited "
                               f"for the answer to {what}")
                else:
                    message = (f"{where}: cannot reach the server "
                               f"({self._redact(one_line(str(reason))) or type(reason).__name__})")
                if not (_transient(exc) and attempt < retries and self._pause(attempt, end)):
                    raise StoreError(message) from None
            attempt += 1

    def _pause(self, attempt: int, end: float) -> bool:
        """Wait before another attempt; False when the wait would not leave time to try."""
        wait = self.backoff * 2 ** attempt
        if time.monotonic() + wait + 0.5 >= end:
            return False
        self._sleep(wait)
        return True

    def _expired(self, where: str, what: str, elapsed: float, attempt: int) -> StoreError:
        tries = f", {attempt + 1} attempts" if attempt else ""
        return StoreError(f"{where}: {what} timed out: no complete answer after {elapsed:.1f} s "
                          f"(the time limit is {self.limit:g} s{tries}; --timeout sets it)")


class BodyTooLarge(StoreError):
    """The server's answer was larger than kg reads (never retried)."""


def _read_capped(resp: http.client.HTTPResponse, cap: int, clock: _Clock, where: str,
                 what: str) -> bytes:
    """The body of ``resp``, read in pieces under ``clock``'s deadline, at most ``cap`` bytes.

    A declared length over the cap is refused before any byte is read.
    """
    declared = resp.headers.get("Content-Length")
    if declared and declared.strip().isdigit() and int(declared) > cap:
        raise BodyTooLarge(_too_large(where, what, cap, f"it declares {int(declared):,} bytes"))
    parts: list[bytes] = []
    size = 0
    while True:
        if clock.remaining() <= 0:
            raise _Expired()
        chunk = resp.read(_CHUNK)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > cap:
            raise BodyTooLarge(_too_large(where, what, cap, "it went on past that"))
        parts.append(chunk)


def _too_large(where: str, what: str, cap: int, how: str) -> str:
    return (f"{where}: the answer to {what} is larger than {cap / (1 << 20):g} MiB ({how}); "
            "kg stopped reading (--max-response MB sets the limit)")


def _read_error(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read(65536).decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - the body is only for the message
        return ""


class HttpRefused(StoreError):
    """The server answered with an error status (kept apart so push can fall back)."""

    def __init__(self, code: int, where: str, what: str, text: str) -> None:
        self.code = code
        msg = one_line(text)
        if code in (401, 403):
            head = f"{where}: the server refused {what} ({code}: wrong or missing credentials " \
                   "or rights; give --user/--password or KG_SPARQL_USER/KG_SPARQL_PASSWORD)"
        else:
            head = f"{where}: the server refused {what} (HTTP {code})"
        super().__init__(f"{head}: {msg}" if msg else head)
