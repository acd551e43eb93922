"""What every HTTP answer carries: the security headers, and gzip for what is worth it.

The headers are added outside the whole application (``HallApp``), so the page, the
API, the static files and every error (404s, 429s, even the 500 of an unhandled
exception) carry them alike. The Content-Security-Policy lets the page run only
its own scripts and styles from this origin: no inline script, no ``on…=``
attribute, no ``style=`` attribute (the client sets styles through the CSSOM,
which the policy allows), no frame around it, no plugin, no ``<base>``.
``connect-src 'self'`` covers the same-origin WebSocket (CSP Level 3 matches
``ws:``/``wss:`` of the page's own host with ``'self'``).
"""

from __future__ import annotations

import json

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",  # the page's empty icon is a data: URL
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

#: Sent with every HTTP answer (names lower-case, as ASGI carries them).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = tuple(
    (name.encode(), value.encode()) for name, value in (
        ("content-security-policy", CSP),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cross-origin-opener-policy", "same-origin"),
    ))

#: The most a request's head (target and headers) may hold. uvicorn's h11 limit of the
#: same size bounds only a head that arrives in pieces; one that arrives whole in a
#: read passed it (a 70 KiB head was served), so the app holds every head to it too.
HEAD_MAX_BYTES = 16 * 1024

#: Bodies smaller than this go out as they are: gzip would save little and cost a
#: round of CPU for nothing.
GZIP_MIN_BYTES = 512
#: zlib's level: 6 gets nearly all of 9's saving for a third of its CPU.
GZIP_LEVEL = 6


def head_bytes(scope: Scope) -> int:
    """About what the request's head took on the wire: its target and header lines."""
    target = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
    return target + sum(len(k) + len(v) + 4 for k, v in scope.get("headers") or ())


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every HTTP response (a header the
    application set itself is kept), and a head over ``HEAD_MAX_BYTES`` refused before
    anything reads it: 431 over HTTP, a close (1009, too big) for a WebSocket."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and head_bytes(scope) > HEAD_MAX_BYTES:
            await send({"type": "websocket.close", "code": 1009})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if head_bytes(scope) > HEAD_MAX_BYTES:
            body = json.dumps({"error": "too_large", "message":
                               f"a request head is at most {HEAD_MAX_BYTES} bytes"}).encode()
            await send({"type": "http.response.start", "status": 431,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode()),
                                    (b"connection", b"close"), *SECURITY_HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class HallApp(Starlette):
    """Starlette with the security headers outside its error handling (Starlette puts
    the handler of unhandled exceptions outermost, so an ordinary middleware would
    miss the 500s) and gzip inside it."""

    def build_middleware_stack(self) -> ASGIApp:
        inner = super().build_middleware_stack()
        return SecurityHeaders(inner)



#: gzip for bodies of ``GZIP_MIN_BYTES`` or more, to a client that accepts it (the
#: page's JS, CSS, HTML, the rules' JSON, API answers); WebSockets pass untouched.
GZIP = Middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL)
