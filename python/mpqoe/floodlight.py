"""Floodlight with the mpqoe module as a controller process, and what a network Floodlight
controls needs before MPTCP traffic (docs/floodlight.md).

The user supplies the Floodlight jar; this project never builds or ships Floodlight. The module
jar is built against it (`mvn -Dfloodlight.jar=FLOODLIGHT_JAR -pl floodlight-module/floodlight
-am install`).

    with Floodlight(descriptor, "ga", of_port, rest_port, log, floodlight_jar,
                    settings={"idleTimeoutS": 60}) as fl:
        ...  # switches connect to 127.0.0.1:of_port
        prepare_network(fl.rest, pings, n_links)
        fl.get("clients")  # GET /wm/mpqoe/clients
"""

import json
import os
import re
import time
import zipfile

from mpqoe import REPO
from mpqoe.proc import Service, free_port, read_since
from mpqoe.rest import ERRORS, ControllerProcess

DEFAULT_MODULE_JAR = os.path.join(
    REPO, "floodlight-module", "floodlight", "target", "mpqoe-floodlight.jar"
)
PROPS = "mpqoe-floodlight.properties"  # the module jar's example configuration
MODULE = "org.mpqoe.floodlight.MpqoeModule"
MAIN = "net.floodlightcontroller.core.Main"
MAIN_CLASS = MAIN.replace(".", "/") + ".class"
PREFIX = "/wm/mpqoe"
FORCE_RECOMPUTE = "/wm/routing/paths/force-recompute/json"
START_TIMEOUT_S = 120
LOG_TAIL_LINES = 20


def require_jars(floodlight_jar, module_jar=DEFAULT_MODULE_JAR):
    """ValueError (one line) unless both are readable jars: Floodlight's with its Main class,
    the module's with its example configuration."""
    build = (
        f"; build it with `mvn -Dfloodlight.jar={floodlight_jar or 'FLOODLIGHT_JAR'}"
        " -pl floodlight-module/floodlight -am install` (docs/floodlight.md)"
    )
    for what, path, member, hint in (
        ("Floodlight jar", floodlight_jar, MAIN_CLASS, ""),
        ("mpqoe module jar", module_jar, PROPS, build),
    ):
        if not path:
            raise ValueError(f"no {what} given{hint}")
        if not os.path.isfile(path):
            raise ValueError(f"{what} {path}: no such file{hint}")
        if not os.access(path, os.R_OK):
            raise ValueError(f"{what} {path}: not readable")
        try:
            with zipfile.ZipFile(path) as z:
                names = set(z.namelist())
        except (OSError, zipfile.BadZipFile) as e:
            raise ValueError(f"{what} {path}: not a jar ({e})") from None
        if member not in names:
            raise ValueError(f"{what} {path}: has no {member}, not the {what}{hint}")


def template(module_jar):
    """The module jar's example properties (src/main/resources/mpqoe-floodlight.properties)."""
    with zipfile.ZipFile(module_jar) as z:
        return z.read(PROPS).decode()


def set_prop(text, key, value):
    """The properties text with `key=value` (replaced, else appended); booleans as Java writes
    them, backslashes escaped (a properties file reads `\\` as an escape)."""
    if isinstance(value, bool):
        value = str(value).lower()
    line = f"{key}={str(value).replace(chr(92), chr(92) * 2)}"
    pattern = re.compile(r"^" + re.escape(key) + r"[ \t]*=.*$", re.M)
    if pattern.search(text):
        return pattern.sub(lambda _m: line, text)
    return text.rstrip("\n") + "\n" + line + "\n"


def server_ips(descriptor):
    """The servers' interface addresses in a descriptor (a dict as read from its file)."""
    return [
        i["ip"]
        for h in descriptor.get("hosts", [])
        if h.get("role") == "server"
        for i in h["interfaces"]
    ]


def properties(text, descriptor_path, algorithm, of_port, rest_port, sync_port, settings=None):
    """The configuration of one Floodlight: the example properties `text` with these ports,
    the module's `topology` (the descriptor file, an overlay on what Floodlight discovers),
    `servers` (from the descriptor), `algorithm`, then `settings` {module parameter: value}
    (docs/floodlight.md; they override the former, e.g. topology="" for the discovered network
    alone). Names and values are checked by the module at start-up, not here."""
    with open(descriptor_path, encoding="utf-8") as f:
        descriptor = json.load(f)
    core = "net.floodlightcontroller.core.internal.OFSwitchManager"
    values = [
        (f"{core}.openFlowPort", of_port),
        ("net.floodlightcontroller.restserver.RestApiServer.httpPort", rest_port),
        ("org.sdnplatform.sync.internal.SyncManager.port", sync_port),
        (f"{MODULE}.topology", os.path.abspath(descriptor_path)),
        (f"{MODULE}.servers", ",".join(server_ips(descriptor))),
        (f"{MODULE}.algorithm", algorithm),
    ]
    values += [(f"{MODULE}.{name}", value) for name, value in (settings or {}).items()]
    for key, value in values:
        text = set_prop(text, key, value)
    return text


class Floodlight(ControllerProcess):
    """Floodlight with mpqoe for one run (fresh state each time), used like the standalone
    controller: OpenFlow on 127.0.0.1:of_port, REST on 127.0.0.1:rest_port under /wm/mpqoe
    (the same resources and answers as the standalone's /mpqoe). Its properties are written to
    workdir (default: the log's directory) as mpqoe-floodlight.properties."""

    def __init__(
        self,
        descriptor,
        algorithm,
        of_port,
        rest_port,
        log_path,
        floodlight_jar,
        module_jar=DEFAULT_MODULE_JAR,
        settings=None,
        workdir=None,
    ):
        self.descriptor, self.algorithm = descriptor, algorithm
        self.of_port, self.rest_port = of_port, rest_port
        self.log_path = log_path
        self.floodlight_jar = os.path.abspath(floodlight_jar) if floodlight_jar else None
        self.module_jar = os.path.abspath(module_jar) if module_jar else None
        self.settings = dict(settings or {})
        self.workdir = workdir or os.path.dirname(os.path.abspath(log_path))
        self.props = os.path.join(os.path.abspath(self.workdir), PROPS)
        self.cmd = [
            "java", "-cp", f"{self.floodlight_jar}:{self.module_jar}", MAIN, "-cf", self.props,
        ]  # fmt: skip
        super().__init__(
            Service(self.cmd, log_path, name="Floodlight", grace=10), rest_port, PREFIX
        )

    def __enter__(self):
        require_jars(self.floodlight_jar, self.module_jar)
        sync_port = free_port()
        while sync_port in (self.of_port, self.rest_port):
            sync_port = free_port()
        text = properties(
            template(self.module_jar),
            self.descriptor,
            self.algorithm,
            self.of_port,
            self.rest_port,
            sync_port,
            self.settings,
        )
        os.makedirs(self.workdir, exist_ok=True)
        with open(self.props, "w", encoding="utf-8") as f:
            f.write(text)
        self.service.start()
        try:
            self.rest.wait(self.service, self.prefix + "/config", START_TIMEOUT_S, interval=0.5)
        except RuntimeError as e:
            self.service.stop()
            why = first_error(read_since(self.log_path))
            raise RuntimeError(
                f"Floodlight did not start: {e}" + (f": {why}" if why else "") + f"; {self.tail()}"
            ) from None
        return self

    def tail(self, lines=LOG_TAIL_LINES):
        """The last lines of the log, as one text to append to an error."""
        text = read_since(self.log_path).splitlines()[-lines:]
        return f"last {len(text)} lines of {self.log_path}:\n" + "\n".join(
            "  | " + ln for ln in text
        )


def first_error(log):
    """The first exception message in a Floodlight log (a module's refusal of a parameter is
    `...FloodlightModuleException: mpqoe: ...`), else its first ERROR line, else None."""
    lines = log.splitlines()
    for ln in lines:
        if re.match(r"^[\w.$]+(?:Exception|Error): ", ln.strip()):
            return ln.strip()
    return next((ln.strip() for ln in lines if " ERROR " in ln), None)


def wait_topology(rest, n_links, timeout, interval=0.5):
    """Until GET /wm/mpqoe/topology lists n_links links and no mismatch with the descriptor:
    a link is there once Floodlight's LLDP saw it in both directions and the module's rebuild
    followed (seconds after the switches connect). Returns (seconds, last answer)."""
    t0, topo = time.monotonic(), {}
    while True:
        try:
            topo = rest.get(PREFIX + "/topology", timeout=2) or {}
        except ERRORS:
            topo = {}
        if len(topo.get("links", [])) >= n_links and not topo.get("mismatches"):
            break
        if time.monotonic() - t0 >= timeout:
            break
        time.sleep(interval)
    return time.monotonic() - t0, topo


def prepare_network(rest, pings, n_links, timeout=60, settle_s=2):
    """Makes a network whose switches Floodlight controls ready for MPTCP traffic, after every
    switch connected. The standalone runtime answers ARP itself; under Floodlight, ARP and ICMP
    are Forwarding's, and an MPTCP handshake that comes before mpqoe knows the links finds no
    path. So:

    1. waits until mpqoe's topology has the n_links links and no mismatch (wait_topology);
    2. calls pings(), which pings the server once from every client interface and returns
       those that got no answer (empty when all did): this fills the hosts' ARP caches through
       Forwarding and teaches Floodlight's device manager where each interface attaches;
    3. if a ping failed: POST /wm/routing/paths/force-recompute/json once (Forwarding
       sometimes keeps stale broadcast ports after switches reconnect), waits settle_s and
       pings again.

    Returns {"topology_s", "failed_first", "recomputed"}; RuntimeError when the links are not
    there within timeout, the topology differs from the descriptor, or pings still fail."""
    took, topo = wait_topology(rest, n_links, timeout)
    links, mismatches = len(topo.get("links", [])), topo.get("mismatches") or []
    if links < n_links or mismatches:
        raise RuntimeError(
            f"Floodlight's mpqoe topology not ready after {timeout} s: {links} of {n_links}"
            f" links, mismatches {json.dumps(mismatches)[:300]}"
        )
    first = list(pings())
    failed = first
    if first:
        rest.request("POST", FORCE_RECOMPUTE)
        time.sleep(settle_s)
        failed = list(pings())
    if failed:
        raise RuntimeError(
            f"pings through Floodlight's Forwarding failed from {failed}"
            f" (first try: {first}; after POST {FORCE_RECOMPUTE})"
        )
    return {"topology_s": round(took, 1), "failed_first": first, "recomputed": bool(first)}
