"""A JSON client of the controller's REST API (the standalone runtime's /mpqoe/... and the
Floodlight module's /wm/mpqoe/...)."""

import json
import time
import urllib.error
import urllib.request

from mpqoe.discovered import rename

ERRORS = (OSError, urllib.error.URLError, ValueError)


class Rest:
    """names: {controller's name: the test's name}, applied to every answer (a controller
    that discovered the network names switches and hosts itself: discovered.names)."""

    def __init__(self, port, host="127.0.0.1"):
        self.base = f"http://{host}:{port}"
        self.names = {}

    def request(self, method, path, body=None, timeout=5):
        """The decoded JSON answer (None for an empty one); urllib errors as they come."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=timeout) as r:
            text = r.read().decode()
        return rename(json.loads(text), self.names) if text.strip() else None

    def get(self, path, timeout=5):
        return self.request("GET", path, timeout=timeout)

    def put(self, path, body, timeout=5):
        return self.request("PUT", path, body, timeout=timeout)

    def wait(self, service, path, timeout, interval=0.3):
        """GET path until it answers; RuntimeError when the service (proc.Service) exits or
        the time is up."""
        deadline, last = time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            service.require_alive()
            try:
                return self.get(path, timeout=2)
            except ERRORS as e:
                last = e
            time.sleep(interval)
        raise RuntimeError(f"{self.base}{path} did not answer in {timeout} s ({last})")


class ControllerProcess:
    """A controller started for one run: `service` (proc.Service) and its REST API under
    `prefix`; a context manager that stops it on exit. Subclasses start it in __enter__."""

    def __init__(self, service, rest_port, prefix):
        self.service, self.rest, self.prefix = service, Rest(rest_port), prefix

    def __exit__(self, *exc):
        self.service.stop()
        return False

    def get(self, what):
        """GET <prefix>/<what> (JSON)."""
        return self.rest.get(f"{self.prefix}/{what}", timeout=10)
