"""HTTP/1.1 as the dashboard's server speaks it: a request's head read into a WSGI environ,
strictly (what a browser sends, nothing a proxy would), and the app's answer written by the
standard library's WSGI handler (`wsgiref.handlers.SimpleHandler`) into bytes for the
server's loop to send. No request holds a thread before it has fully arrived."""

from __future__ import annotations

import io
import logging
import re
from typing import Any, NamedTuple
from urllib.parse import unquote_to_bytes
from wsgiref.handlers import SimpleHandler

log = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024  # a request line and headers; a browser's are 1 to 3 KiB
MAX_HEADERS = 64
MAX_BODY = 256 * 1024  # the largest body the app takes is a config or a scenario
HAND_OVER = "companion.hand_over"  # environ key: take this request's connection (streams.py)
VOUCH = "companion.vouch"  # environ key: the request proved the Godfather's or a seat's
REQUEST_LINE = re.compile(rb"([A-Z]{1,16}) (/[\x21-\x7e]{0,4095}|\*) HTTP/(1\.[01])")
TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,64}")
VALUE = re.compile(rb"[\t\x20-\x7e\x80-\xff]*")
PROXY_HEADERS = {"HTTP_FORWARDED", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST",
                 "HTTP_X_FORWARDED_PROTO", "HTTP_X_REAL_IP"}  # no proxy stands in front


class BadRequest(Exception):
    """A request the server answers itself, then closes: its status and a sentence."""

    def __init__(self, status: str, why: str) -> None:
        super().__init__(why)
        self.status = status

    def answer(self) -> bytes:
        body = f"{self.status}: {self}\n".encode()
        return (b"HTTP/1.1 %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                % (self.status.encode(), len(body), body))


class Request(NamedTuple):
    environ: dict[str, Any]
    body_length: int
    keep_alive: bool  # what the client asks for
    expects_continue: bool


def parse_head(head: bytes, server: tuple[str, int], peer: tuple[str, int]) -> Request:
    """The environ of a request's head (without its final blank line)."""
    lines = head.split(b"\r\n")
    line = REQUEST_LINE.fullmatch(lines[0])
    if line is None:
        raise BadRequest("400 Bad Request", "not an HTTP/1.0 or 1.1 request line")
    if len(lines) > MAX_HEADERS + 1:
        raise BadRequest("431 Request Header Fields Too Large", f"over {MAX_HEADERS} headers")
    method, target, version = (part.decode("ascii") for part in line.groups())
    path, _, query = target.partition("?")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "QUERY_STRING": query,
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),  # as PEP 3333 asks
        "SERVER_NAME": server[0], "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{version}", "REMOTE_ADDR": peer[0], "REMOTE_PORT": str(peer[1]),
    }
    for header in lines[1:]:
        name, colon, raw = header.partition(b":")
        value = raw.strip(b" \t")
        if not colon or TOKEN.fullmatch(name) is None or VALUE.fullmatch(value) is None:
            raise BadRequest("400 Bad Request", "a malformed header line")
        key = name.decode("ascii").upper().replace("-", "_")
        if "_" in name.decode("ascii") or f"HTTP_{key}" in PROXY_HEADERS:
            continue  # a name with "_" could pose as one with "-" (waitress, nginx do so)
        key = key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"
        text = value.decode("latin-1")
        if key in environ:
            if key in ("CONTENT_LENGTH", "CONTENT_TYPE", "HTTP_HOST"):
                raise BadRequest("400 Bad Request", f"{name.decode()} given twice")
            text = environ[key] + ("; " if key == "HTTP_COOKIE" else ", ") + text
        environ[key] = text
    return Request(environ, _body_length(environ), _keep_alive(environ),
                   environ.get("HTTP_EXPECT", "").lower() == "100-continue")


def _body_length(environ: dict[str, Any]) -> int:
    if "HTTP_TRANSFER_ENCODING" in environ:
        raise BadRequest("411 Length Required", "send the body with a Content-Length")
    length = environ.get("CONTENT_LENGTH", "0")
    if not length.isdigit() or len(length) > 12:
        raise BadRequest("400 Bad Request", "Content-Length is not a number")
    if int(length) > MAX_BODY:
        raise BadRequest("413 Content Too Large", f"bodies of {MAX_BODY} bytes at most")
    return int(length)


def _keep_alive(environ: dict[str, Any]) -> bool:
    tokens = {t.strip().lower() for t in environ.get("HTTP_CONNECTION", "").split(",")}
    if environ["SERVER_PROTOCOL"] == "HTTP/1.1":
        return "close" not in tokens
    return "keep-alive" in tokens


class Answer(SimpleHandler):
    """One request's answer, written into memory: the bytes, whether the connection is kept,
    and the stream receiver the app handed the connection to (`environ[HAND_OVER]`)."""

    http_version = "1.1"
    server_software = "cashnguns"
    environ: dict[str, Any]  # what wsgiref sets, which its stubs leave out
    status: str | None
    headers: Any
    headers_sent: bool

    def __init__(self, request: Request, body: bytes) -> None:
        self.out = io.BytesIO()
        self.os_environ = {}  # not the process's environment, wsgiref's default
        environ = {**request.environ, HAND_OVER: self._hand_over, VOUCH: self._vouch}
        super().__init__(io.BytesIO(body), self.out, io.StringIO(), environ,
                         multithread=True, multiprocess=False)
        self.wanted_keep_alive = request.keep_alive
        self.keep_alive = False
        self.vouched = False
        self.receiver: Any = None

    def _hand_over(self, receiver: Any) -> None:
        if self.environ["REQUEST_METHOD"] == "HEAD":  # no body to stream: the head is all
            receiver.cancel()
        else:
            self.receiver = receiver

    def _vouch(self) -> None:
        self.vouched = True

    def cleanup_headers(self) -> None:
        super().cleanup_headers()
        assert self.status is not None and self.headers is not None
        code = self.status[:3]
        framed = ("Content-Length" in self.headers or code in ("204", "304")
                  or self.environ["REQUEST_METHOD"] == "HEAD")
        # an answer of unknown length runs to the close; a refusal for load frees its place
        self.keep_alive = self.wanted_keep_alive and framed and code != "503"
        if not self.keep_alive:
            self.headers["Connection"] = "close"

    def finish_content(self) -> None:
        if self.receiver is not None and not self.headers_sent:
            self.send_headers()  # the stream's body comes from the stream loop
        else:
            super().finish_content()

    def handle_error(self) -> None:
        if self.receiver is not None:  # the app failed after asking: nothing was taken
            self.receiver.cancel()
            self.receiver = None
        super().handle_error()

    def log_exception(self, exc_info: Any) -> None:
        log.error("the dashboard's app failed on %s %s", self.environ.get("REQUEST_METHOD"),
                  self.environ.get("PATH_INFO"), exc_info=exc_info)

    def answered(self) -> bytes:
        return self.out.getvalue()
