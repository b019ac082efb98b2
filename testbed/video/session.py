"""Host side of one video-experiment session: the controller, the network (guest or local)
with its agent, and one run = N dash.js players through it.

Used by video_run.py; no command line of its own. Standard library only (the host's python3).
"""

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import types

from mpqoe import files, floodlight
from mpqoe.flows import cookie_switches, edge_walk
from mpqoe.proc import Service, free_ports, machine_load
from mpqoe.rest import ERRORS, ControllerProcess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


MPQOE = os.path.join(REPO, "bin", "mpqoe")
TESTBED_RUN = os.path.join(REPO, "testbed", "run")
HARNESS_RUN = os.path.join(REPO, "dashjs-harness", "run")
AGENT = os.path.join(HERE, "guest_agent.py")
GUEST_AGENT_PORT, GUEST_CLIENT_PORT, SERVER_PORT = 7000, 7100, 8000
HOST_FROM_GUEST = "10.0.2.2"  # QEMU user networking: the host's 127.0.0.1
# Subflow rules outlive dash.js's pauses between segment requests (a few seconds with a full
# buffer): an expired rule would end the subflow (docs/results/ga-paper.md).
IDLE_TIMEOUT_S = 60
# the network side stops itself after this long unless the batch asks for more (video_run.py)
NETWORK_TIMEOUT_S = 7200


class SessionError(Exception):
    """The session (guest, agent, controller) failed; its runs cannot go on."""


class AgentClient:
    """JSON-line commands to guest_agent.py."""

    def __init__(self, port):
        self.port, self.sock, self.f = port, None, None
        self.lock = threading.Lock()

    def connect(self, timeout, alive):
        deadline, last = time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            if not alive():
                raise SessionError("the network side exited before its agent answered")
            try:
                self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                self.f = self.sock.makefile("rwb")
                self.sock.settimeout(300)
                return self.call("ready")
            except (OSError, ValueError, SessionError) as e:
                last = e
                self.close()
                time.sleep(2)
        raise SessionError(f"the agent did not answer in {timeout} s ({last})")

    def call(self, cmd, **kw):
        with self.lock:
            if self.f is None:
                raise SessionError(f"no connection to the agent for {cmd!r}")
            self.f.write(json.dumps({"cmd": cmd, **kw}).encode() + b"\n")
            self.f.flush()
            line = self.f.readline()
        if not line:
            raise SessionError(f"agent closed the connection during {cmd!r}")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise SessionError(f"agent {cmd}: {reply.get('error')}")
        return reply

    def close(self):
        for x in (self.f, self.sock):
            if x is not None:
                try:
                    x.close()
                except OSError:
                    pass
        self.f = self.sock = None


class Network:
    """The emulated network: testbed/run with the agent in the guest, or (local) the agent on
    this machine. Context manager; `agent` is the AgentClient, `client_urls` the players'.
    content_dir is one content entry; the server serves its parent as /content."""

    def __init__(self, descriptor, content_dir, workdir, local=False, timeout=NETWORK_TIMEOUT_S):
        self.descriptor, self.content_dir, self.workdir = descriptor, content_dir, workdir
        self.local, self.timeout = local, timeout
        self.proc = self.agent = None
        self.ready = {}
        self.of_port, self.rest_port = free_ports(2)

    def __enter__(self):
        n_clients = sum(
            1 for h in files.read_json(self.descriptor)["hosts"] if h["role"] == "client"
        )
        log = open(os.path.join(self.workdir, "network.log"), "w", encoding="utf-8")  # noqa: SIM115
        self.log = log
        if self.local:
            agent_port, client_port = free_ports(2)[0], 17100
            cmd = ["/usr/bin/python3", AGENT, "--descriptor", self.descriptor,
                   "--controller", f"127.0.0.1:{self.of_port}",
                   "--content", os.path.dirname(self.content_dir),
                   "--agent-port", str(agent_port), "--client-port", str(client_port),
                   "--bind", "127.0.0.1", "--timeout", str(self.timeout)]  # fmt: skip
            self.client_ports = [client_port + i for i in range(n_clients)]
        else:
            host_ports = free_ports(n_clients + 1)
            agent_port, self.client_ports = host_ports[0], host_ports[1:]
            fwds = [f"{agent_port}:{GUEST_AGENT_PORT}"]
            fwds += [f"{p}:{GUEST_CLIENT_PORT + i}" for i, p in enumerate(self.client_ports)]
            console = os.path.join(self.workdir, "console.log")
            cmd = [TESTBED_RUN, "--no-build", "--timeout", str(self.timeout),
                   "--results", self.workdir, "--log", console]  # fmt: skip
            for f in fwds:
                cmd += ["--fwd", f]
            rel = os.path.relpath
            cmd += ["--", "/usr/bin/python3", rel(AGENT, REPO),
                    "--descriptor", "/results/" + os.path.basename(self.descriptor),
                    "--controller", f"{HOST_FROM_GUEST}:{self.of_port}",
                    "--content", "/mpqoe/" + rel(os.path.dirname(self.content_dir), REPO),
                    "--timeout", str(self.timeout)]  # fmt: skip
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.agent = AgentClient(agent_port)
        try:
            self.ready = self.agent.connect(600, lambda: self.proc.poll() is None)
        except SessionError:
            self.__exit__()
            raise
        except BaseException:  # stopped while it boots (SIGTERM, ^C): no guest left behind
            self.abort()
            raise
        self.client_urls = [f"http://127.0.0.1:{p}" for p in self.client_ports]
        return self

    def __exit__(self, *exc):
        if self.agent is not None and self.agent.f is not None:
            try:
                self.agent.call("quit")
            except (OSError, ValueError, SessionError):
                pass
            self.agent.close()
        if self.proc is not None:
            self._end(grace=120)
        self.log.close()
        return False

    def abort(self):
        """Ends the network side at once, every process of it (its own session: the testbed's
        shell and QEMU, or the local agent), and closes the log."""
        if self.agent is not None:
            self.agent.close()
        self._end(grace=0)
        self.log.close()

    def _end(self, grace):
        """Waits grace s for the network side to exit by itself, then signals its whole
        process group (its own session), SIGTERM and then SIGKILL, until it has exited."""
        for sig, wait in ((None, grace), (signal.SIGTERM, 30), (signal.SIGKILL, 10)):
            if sig is not None:
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    return
            try:
                self.proc.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def agent_path(self, rel):
        """Where the agent writes a file the host reads as workdir/rel: the guest mounts the
        work directory at /results; a local agent writes there directly."""
        return os.path.join(self.workdir if self.local else "/results", rel)

    def exit_code(self):
        return None if self.proc is None else self.proc.poll()

    def answers(self):
        """Whether the agent still answers a command (after a failed run: the network lives)."""
        try:
            self.agent.call("load")
            return True
        except (OSError, ValueError, SessionError):
            return False

    def gone_cause(self, timeout=120):
        """Why the network side stopped answering (death_cause of its logs), once it has
        exited or after timeout seconds."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        texts = []
        for name in ("console.log", "network.log"):
            try:
                with open(
                    os.path.join(self.workdir, name), encoding="utf-8", errors="replace"
                ) as f:
                    texts.append(f.read())
            except OSError:
                texts.append("")
        return death_cause(*texts, self.exit_code())


# The console's line when the guest's kernel dies, and the last line of a Python traceback (the
# exception) in the network side's log.
_PANIC = re.compile(r"Kernel panic - not syncing: (.*)")
_EXCEPTION = re.compile(
    r"^([A-Za-z_][\w.]*(?:Error|Exception|Expired|Interrupt|Exit))(?::\s*(.*))?$"
)


def death_cause(console, network_log, code):
    """One line saying why the network side stopped answering, from the guest's console log,
    the network side's log and its exit code (None while it runs): a kernel panic, else the
    exception that ended the guest agent, else the exit code."""
    panic = _PANIC.findall(console)
    if panic:
        return f"the guest's kernel panicked ({panic[-1].strip()})"
    lines = network_log.splitlines()
    if any(ln.startswith("Traceback") for ln in lines):
        last = [m for m in map(_EXCEPTION.match, lines) if m]
        if last:
            return f"the guest agent died: {last[-1].group(0).strip()}"
    if code is None:
        return "the network side stopped answering and has not exited"
    return f"the network side exited ({code})"


class Controller(ControllerProcess):
    """bin/mpqoe controller for one run (fresh state per run), REST on loopback."""

    def __init__(self, descriptor, algorithm, of_port, rest_port, log_path, extra=()):
        cmd = [MPQOE, "controller", "--topology", descriptor, "--algorithm", algorithm,
               "--bind", "127.0.0.1", "--port", str(of_port), "--rest", str(rest_port),
               "--stats-interval", "1", "--idle-timeout", str(IDLE_TIMEOUT_S), *extra]  # fmt: skip
        super().__init__(Service(cmd, log_path, name="controller"), rest_port, "/mpqoe")

    def __enter__(self):
        self.service.start()
        self.rest.wait(self.service, self.prefix + "/config", 60)
        return self


def controller(kind, descriptor, cell, of_port, rest_port, log_path, floodlight_jar=None):
    """The run's controller: the standalone runtime, or Floodlight with the mpqoe module and
    the same settings (mpqoe.floodlight)."""
    if kind == "standalone":
        return Controller(descriptor, cell.controller_algorithm(), of_port, rest_port, log_path,
                          extra=cell.controller_args())  # fmt: skip
    settings = {"idleTimeoutS": IDLE_TIMEOUT_S, "statsIntervalS": 1}
    if cell.segment_routing:
        settings["segmentRouting"] = "true"
    return floodlight.Floodlight(descriptor, cell.controller_algorithm(), of_port, rest_port,
                                 log_path, floodlight_jar, settings=settings)  # fmt: skip


def prepare(ctl, agent, descriptor):
    """After the switches connected: Floodlight must discover every link and learn the hosts
    (pings through its Forwarding) before MPTCP handshakes find paths; the standalone runtime
    needs nothing."""
    if isinstance(ctl, Controller):
        return None

    def pings():
        return agent.call("ping")["failed"]

    return floodlight.prepare_network(ctl.rest, pings, len(descriptor["links"]))


def wait_connected(agent, n_switches, timeout=60):
    """Until every bridge is connected to the controller; the last state otherwise."""
    deadline, state = time.monotonic() + timeout, {}
    while time.monotonic() < deadline:
        state = agent.call("connected")["bridges"]
        if len(state) == n_switches and all(state.values()):
            return state
        time.sleep(1)
    raise SessionError(f"switches not all connected after {timeout} s: {state}")


def wait_closed(agent, timeout=20.0, kill=False):
    """Until no host has a TCP connection open or closing (the players' connections of a run
    that just ended, or left over from an earlier one), for at most timeout s; then, with
    kill, closes what is left (`ss -K`). Why (docs/video-experiments.md): later runs of a batch
    lost MP_CAPABLE handshakes, we think to connections of an earlier run that outlived it and
    met a reused client port.
    Returns {"waited_s", "open": {host: sockets} at the end, "killed": {host: sockets}}."""
    t0 = time.monotonic()
    state = agent.call("sockets")["open"]
    while state and time.monotonic() - t0 < timeout:
        time.sleep(1)
        state = agent.call("sockets")["open"]
    out = {"waited_s": round(time.monotonic() - t0, 1), "open": state, "killed": {}}
    if state and kill:
        out["killed"] = state
        out["open"] = agent.call("sockets", kill=True)["open"]
    return out


class Sampler(threading.Thread):
    """Every `period` s during a run: the controller's link loads and client assignments, and
    the load of both machines."""

    def __init__(self, ctl, agent, period=2.0, flows_every=3, segment_routing=False):
        super().__init__(daemon=True)
        self.ctl, self.agent, self.period, self.flows_every = ctl, agent, period, flows_every
        # With segment routing a subflow's cookie sits on its two edge switches only; its
        # path is then read by walking the label stacks through the switches' label tables.
        self.segment_routing, self.topo = segment_routing, None
        self.walks = {}  # cookie -> {"up"/"down": "" (along the path) or what went wrong}
        self.stop_event = threading.Event()
        self.t0 = time.time()
        self.links, self.assignments, self.load, self.errors = [], {}, [], []
        self.subflows = {}  # cookie -> {"client": ip, "path": [switch], "connection": id}
        self.counted = {}  # cookie -> {"up": {switch}, "down": {switch}}
        self.n = 0

    def run(self):
        while not self.stop_event.wait(self.period):
            self.sample()

    def sample(self, flows=None):
        t = round(time.time() - self.t0, 1)
        self.n += 1
        try:
            topo = self.ctl.get("topology")
            self.links.append({"t": t, "load": [round(x["loadMbps"], 3) for x in topo["links"]]})
            for a in self.ctl.get("clients") or []:
                self.assignments.setdefault(a["client"], a)
            for c in self.ctl.get("connections") or []:
                for sf in c["subflows"]:
                    self.subflows[int(sf["cookie"], 16)] = {
                        "client": sf["client"].rsplit(":", 1)[0], "path": sf["path"],
                        "server": sf["server"].rsplit(":", 1)[0],
                        "connection": c["id"], "client_name": c["client"],
                    }  # fmt: skip
        except ERRORS as e:
            self.errors.append(f"{t}: controller: {e}")
        try:
            if flows is None and self.n % self.flows_every == 0:
                flows = self.agent.call("flows")["flows"]
            if flows is not None:
                self.count(flows)
        except (OSError, ValueError, SessionError) as e:
            self.errors.append(f"{t}: flows: {e}")
        try:
            # The agent's answer also times the host-guest bridge (QEMU's forwarding and a
            # Python round trip in the guest), and gives the guest's clock offset.
            t_send = time.time()
            guest = self.agent.call("load")
            t_back = time.time()
            guest["bridge_rtt_ms"] = round((t_back - t_send) * 1000, 2)
            guest["clock_offset_s"] = round(guest["time"] - (t_send + t_back) / 2, 4)
            self.load.append({"t": t, "host": machine_load(), "guest": guest})
        except (OSError, ValueError, SessionError) as e:
            self.errors.append(f"{t}: load: {e}")

    def count(self, flows):
        """Adds, per known subflow cookie, the switches whose rule of it counted packets (and
        with segment routing, where its label stacks lead)."""
        for cookie, sf in self.subflows.items():
            got = cookie_switches(flows, cookie, sf["client"])
            mine = self.counted.setdefault(cookie, {"up": set(), "down": set()})
            for d in ("up", "down"):
                mine[d] |= got[d]
                if self.segment_routing and got[d]:
                    self.walk(flows, cookie, sf, d)

    def walk(self, flows, cookie, sf, d):
        if self.topo is None:
            plan = self.agent.call("plan")["plan"]
            self.topo = types.SimpleNamespace(
                names={sw: sw for sw in plan},
                plan={
                    sw: [types.SimpleNamespace(port=p, kind=k, peer=peer) for p, k, peer in ports]
                    for sw, ports in plan.items()
                },
            )
        path = sf["path"] if d == "up" else sf["path"][::-1]
        dst = sf["server"] if d == "up" else sf["client"]
        labels, visited, problem, idle = edge_walk(
            flows, self.topo, cookie, sf["client"], d, path[0], dst
        )
        wrong = problem or ("" if visited == path else f"labels {labels} lead along {visited}")
        if idle and not wrong:
            wrong = f"rules that counted nothing: {idle}"
        self.walks.setdefault(cookie, {})[d] = wrong

    def finish(self, flows):
        self.stop_event.set()
        self.join(timeout=30)
        self.sample(flows)

    def path_check(self):
        """(subflows whose counted switches are exactly their path's, both directions;
        the others as 'cookie: detail'; subflows that never counted packets)."""
        good, bad, idle = 0, [], 0
        for cookie, sf in self.subflows.items():
            got = self.counted.get(cookie, {"up": set(), "down": set()})
            if not got["up"] and not got["down"]:
                idle += 1
                continue
            path = ">".join(sf["path"])
            if self.segment_routing:
                edges = {"up": {sf["path"][0]}, "down": {sf["path"][-1]}}
                walks = self.walks.get(cookie, {})
                wrong = [
                    f"{d}: counted on {sorted(got[d])}, not its edge {sorted(edges[d])}"
                    if got[d] != edges[d]
                    else f"{d}: {walks[d]}"
                    for d in ("up", "down")
                    if got[d] != edges[d] or walks.get(d)
                ]
            else:
                want = set(sf["path"])
                wrong = [] if got["up"] == want and got["down"] == want else [
                    f"counted up {sorted(got['up'])} down {sorted(got['down'])}"
                ]  # fmt: skip
            if wrong:
                bad.append(f"0x{cookie:x} ({sf['client_name']}): path {path}, " + "; ".join(wrong))
            else:
                good += 1
        return good, bad, idle


def play(urls, mpd, batch, stagger, out, log_path, player=None):
    """dashjs-harness/run with client i at urls[i] playing player profile `player` (None: the
    harness's default, dashjs-harness/player/players.json); returns its exit code."""
    b = batch
    cmd = [HARNESS_RUN, "--clients", str(b.clients), "--server", ",".join(urls), "--mpd", mpd,
           "--set", b.content_set, "--duration", f"{b.video_s:g}", "--segment", f"{b.segment_s:g}",
           "--stagger", f"{stagger:g}", "--tcp", "--out", out, "--progress", "20"]  # fmt: skip
    if player is not None:
        cmd += ["--player", player]
    # --tcp: the browser's side is plain TCP to its forwarder; MPTCP (or not) is the
    # forwarder's upstream connection inside the emulated network.
    with open(log_path, "w", encoding="utf-8") as log:
        return subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False).returncode
