"""Every HTTP answer carries the security headers; the client's files go out gzipped.

Against a real ``cardhall serve``: the page, a script, the rules' JSON, API answers and
refusals (401, 404, 405); the 500 of an unhandled exception through the same app class
(nothing in the hall fails on purpose).
"""

from __future__ import annotations

import gzip
import json
import subprocess
from importlib.resources import files
from pathlib import Path

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from cardhall.server.headers import GZIP_MIN_BYTES, SECURITY_HEADERS, HallApp
from tests.server.conftest import CARDHALL, METRICS_TOKEN, HallProcess, running_hall

WANT = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}


def has_security_headers(headers: httpx.Headers) -> None:
    for name, value in WANT.items():
        assert headers.get(name) == value, name
    csp = headers["content-security-policy"]
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                      "connect-src 'self'", "object-src 'none'", "base-uri 'none'",
                      "frame-ancestors 'none'"):
        assert directive in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/", 200), ("GET", "/index.html", 200), ("GET", "/app.js", 200),
    ("GET", "/style.css", 200), ("GET", "/rules/index.json", 200),
    ("GET", "/api/variants", 200), ("GET", "/api/me", 401), ("GET", "/api/games/nope", 404),
    ("GET", "/no/such/file.js", 404), ("POST", "/api/rooms", 405), ("GET", "/healthz", 200),
])
def test_every_answer_has_the_security_headers(hall: HallProcess, method: str, path: str,
                                               status: int) -> None:
    r = httpx.request(method, hall.url + path)
    assert r.status_code == status
    has_security_headers(r.headers)


async def test_an_unhandled_error_has_them_too() -> None:
    def fail(request: Request) -> Response:
        raise RuntimeError("a bug")

    app = HallApp(routes=[Route("/fail", fail)])
    transport = httpx.ASGITransport(app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as client:
        r = await client.get("/fail")
    assert r.status_code == 500
    has_security_headers(r.headers)


@pytest.mark.parametrize("path", ["/app.js", "/style.css", "/", "/rules/ddz3.json"])
def test_the_clients_files_go_out_gzipped_to_who_accepts_it(hall: HallProcess,
                                                            path: str) -> None:
    name = path.strip("/") or "index.html"
    plain = (files("cardhall") / "web" / name).read_bytes()
    assert len(plain) >= GZIP_MIN_BYTES
    with httpx.Client() as client, client.stream(
            "GET", hall.url + path, headers={"accept-encoding": "gzip"}) as r:
        raw = b"".join(r.iter_raw())
    assert r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert gzip.decompress(raw) == plain and len(raw) < len(plain)
    has_security_headers(r.headers)
    same = httpx.get(hall.url + path, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in same.headers and same.content == plain


def test_small_answers_go_out_as_they_are(hall: HallProcess) -> None:
    r = httpx.get(hall.url + "/api/me", headers={"accept-encoding": "gzip"})
    assert r.status_code == 401 and "content-encoding" not in r.headers


@pytest.mark.parametrize(("headers", "status", "code"), [
    ({}, 401, "not_authenticated"),
    ({"authorization": "Bearer not-the-metrics-token-at-all"}, 403, "forbidden"),
    ({"authorization": "Bearer " + METRICS_TOKEN[:-1]}, 403, "forbidden"),
    ({"authorization": "Basic " + METRICS_TOKEN}, 401, "not_authenticated"),
])
def test_metrics_refuse_without_the_token(hall: HallProcess, headers: dict[str, str],
                                          status: int, code: str) -> None:
    r = httpx.get(hall.url + "/metrics", headers=headers)
    assert (r.status_code, r.json()["error"]) == (status, code)
    assert "cardhall_" not in r.text
    ok = httpx.get(hall.url + "/metrics", headers=hall.metrics_headers)
    assert ok.status_code == 200 and "cardhall_settlements_total" in ok.text


@pytest.mark.services  # starts its own hall in the test
def test_a_hall_without_a_metrics_token_serves_them_to_nobody(tmp_path: Path) -> None:
    for hall in running_hall(tmp_path, metrics=False):
        for headers in ({}, hall.metrics_headers):
            r = httpx.get(hall.url + "/metrics", headers=headers)
            assert (r.status_code, r.json()["error"]) == (403, "forbidden")
            assert "token_file" in r.json()["message"]


@pytest.mark.slow
def test_a_weak_or_missing_token_file_stops_the_start(tmp_path: Path) -> None:
    weak = tmp_path / "weak.token"
    weak.write_text("short\n")
    for path in (weak, tmp_path / "missing.token"):
        config = tmp_path / "hall.toml"
        config.write_text(f"[metrics]\ntoken_file = {json.dumps(str(path))}\n")
        out = subprocess.run([*CARDHALL, "serve", "--port", "0", "--config", str(config),
                              "--db", f"sqlite:///{tmp_path / 'hall.db'}"],
                             capture_output=True, text=True, timeout=60, check=False)
        assert out.returncode != 0
        assert "metrics.token_file" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(("size", "status"), [(12 * 1024, 200), (20 * 1024, 431),
                                              (70 * 1024, 431)])
def test_a_request_head_is_held_to_16_kib_also_when_it_arrives_whole(
        hall: HallProcess, size: int, status: int) -> None:
    r = httpx.get(hall.url + "/api/variants", headers={"x-pad": "a" * size})
    assert r.status_code == status
    has_security_headers(r.headers)
    if status == 431:
        assert r.json()["error"] == "too_large" and "16384" in r.json()["message"]


async def test_a_websocket_with_a_head_over_16_kib_is_closed_before_the_app(
        hall: HallProcess) -> None:
    url = hall.url.replace("http", "ws", 1) + "/ws"
    with pytest.raises(InvalidStatus):
        async with connect(url, additional_headers={"x-pad": "a" * 20 * 1024}):
            pass
    async with connect(url, additional_headers={"x-pad": "a" * 1024}) as ws:
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["code"] == "not_authenticated"
