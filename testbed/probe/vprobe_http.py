"""The probe's HTTP/1.1 exchange in file mode: one GET, one 200 response.

The client sends one GET with a Host header; the server answers `200 OK` with a video content
type and `Connection: close`, and the body is the frame stream (vprobe_wire.py). The body has
no Content-Length: it ends with the trailer, whose size is not known when the head is sent
(it carries counters read at the end), so the connection's close delimits it, as HTTP/1.1
allows for a response with `Connection: close`. Anything but a GET (HTTP/1.0 or 1.1, no
body) gets a 400.
"""

import re

MAX_HEAD = 16384
TARGET = "/video.vprobe"
CONTENT_TYPE = "video/x-mpqoe-vprobe"
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_STATUS = re.compile(r"HTTP/1\.[01] ([0-9]{3})(?: (.*))?")


class HttpError(Exception):
    """A malformed or unsupported HTTP message; the text says what (one line)."""


def head_end(buf):
    """Offset just past the head's blank line in buf (lines end in CRLF or LF), or -1."""
    pos = 0
    while True:
        nl = buf.find(b"\n", pos)
        if nl < 0:
            return -1
        if buf[pos:nl] in (b"", b"\r"):
            return nl + 1
        pos = nl + 1


def _lines(head):
    text = bytes(head).decode("latin-1")
    lines = text.split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _headers(lines):
    headers = {}
    for line in lines:
        if not line:
            break
        name, sep, value = line.partition(":")
        if not sep or not _TOKEN.fullmatch(name):
            raise HttpError(f"malformed header line {line[:60]!r}")
        headers[name.lower()] = value.strip(" \t")
    return headers


def parse_request(head):
    """(method, target, version, headers) of a request head ending in its blank line;
    HttpError unless it is a GET the server answers."""
    lines = _lines(head)
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[0]:
        raise HttpError(f"malformed request line {lines[0][:60]!r}")
    method, target, version = parts
    if version not in ("HTTP/1.1", "HTTP/1.0"):
        raise HttpError(f"not HTTP/1.0 or HTTP/1.1: {lines[0][:60]!r}")
    if method != "GET":
        raise HttpError(f"method {method[:20]!r} not supported (only GET)")
    if not target.startswith("/"):
        raise HttpError(f"request target {target[:60]!r} is not a path")
    headers = _headers(lines[1:])
    if version == "HTTP/1.1" and "host" not in headers:
        raise HttpError("HTTP/1.1 request without a Host header")
    if "transfer-encoding" in headers or headers.get("content-length", "0") != "0":
        raise HttpError("a GET with a body")
    return method, target, version, headers


def request(host, port, target=TARGET):
    """The client's GET."""
    authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return (
        f"GET {target} HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: vprobe\r\n"
        "Accept: */*\r\nConnection: close\r\n\r\n"
    ).encode()


def response_head():
    """The head of the server's 200 response (the body follows, delimited by the close)."""
    return (
        f"HTTP/1.1 200 OK\r\nServer: vprobe\r\nContent-Type: {CONTENT_TYPE}\r\n"
        "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
    ).encode()


def bad_request(reason):
    """A complete 400 response saying why."""
    body = f"400 Bad Request: {reason}\n".encode()
    return (
        "HTTP/1.1 400 Bad Request\r\nServer: vprobe\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


class ResponseHead:
    """The client's incremental reader of the response head."""

    def __init__(self):
        self.buf = bytearray()
        self.done = False
        self.size = 0
        self.status = None
        self.reason = None
        self.headers = {}

    def feed(self, data):
        """Consume data; once the head is complete, return the body bytes that followed it in
        data (possibly empty) and set done, else None. HttpError when the response is not HTTP
        or the head too long; a status other than 200 is for the caller to judge."""
        self.buf += data
        if not self.buf.startswith(b"HTTP/"[: len(self.buf)]):
            raise HttpError(
                f"the response does not start with HTTP/ but {bytes(self.buf[:8])!r} "
                "(a --mode live server?)"
            )
        end = head_end(self.buf)
        if end < 0:
            if len(self.buf) > MAX_HEAD:
                raise HttpError(f"response head over {MAX_HEAD} bytes")
            return None
        lines = _lines(self.buf[:end])
        m = _STATUS.fullmatch(lines[0])
        if not m:
            raise HttpError(f"malformed status line {lines[0][:60]!r}")
        self.status, self.reason = int(m.group(1)), m.group(2) or ""
        self.headers = _headers(lines[1:])
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            raise HttpError("chunked transfer encoding not supported")
        self.size = end
        self.done = True
        rest = bytes(self.buf[end:])
        self.buf = bytearray()
        return rest
