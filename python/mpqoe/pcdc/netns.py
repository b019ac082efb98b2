"""A multihomed client and server in network namespaces, for the tests, the experiment's host
smoke run and its scenarios in the testbed guest.

Not the descriptor's Mininet network (mpqoe.topo): PCDC's paths are IP routes through one Linux
router with a queue per server-client address pair (htb, u32), and no OpenFlow controller.

    client (userspace PM) --c<k>--rc<k>-- router --rs<j>--s<j>-- server (in-kernel PM)

Client link k: 10.77.<k+1>.1/24 (gateway .254); server link j: 10.77.<101+j>.2/24. Each side has
one routing table per address (source policy routing), so a subflow from a given address leaves
by its own link; the router forwards. Bandwidths are token bucket filters (tbf) on the
download direction: the router's rc<k> (client link k) and the server's s<j> (server link j).
A link's delay (netem, both directions, so a pair's RTT is twice the sum of its two links'
delays) needs a kernel with netem: the testbed guest, not this project's development machines,
where links have no delay. The server announces its addresses beyond the first (`signal`
endpoints), so the client's path manager learns them from MPTCP_EVENT_ANNOUNCED.

A volatile pair (VolatilePair: one server-client address pair, not a whole access link) has
its own tbf on the server's link, under the link's: the link's tbf (handle 10:) holds an htb
(20:) whose class 20:1 takes every packet but the pair's, which a u32 filter on the pair's
source and destination address sends to a class of its own with a tbf (30: for the first
volatile pair of that link, 31: for the next...). Its rate is the pair's good rate or its bad
one; Volatility switches it on a seeded random schedule (schedule()) while a test runs and
records what it applied. The server's link is where the pair's data (server to client) is
alone with the other pairs of that server address and never the bottleneck of the paper's
scenarios, so the htb's round robin between the pair and the rest changes nothing in the good
state. htb, tbf and u32 are all this project's development machines have, besides the guest.
"""

import contextlib
import math
import random
import subprocess
import threading
import time
from dataclasses import dataclass

NET = "10.77"


def client_addr(k):
    return f"{NET}.{k + 1}.1"


def server_addr(j):
    return f"{NET}.{101 + j}.2"


def sh(argv, ns=None, check=True, timeout=20):
    """Runs argv (a list or a blank-separated string), in namespace ns if given."""
    if isinstance(argv, str):
        argv = argv.split()
    full = (["ip", "netns", "exec", ns] if ns else []) + list(argv)
    r = subprocess.run(full, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(full)}: {r.stderr.strip()}")
    return r


def rate_bits(rate):
    """Bits per second of a tc rate ("20mbit", "1gbit", "512kbit", "1000000bit")."""
    units = {"gbit": 10**9, "mbit": 10**6, "kbit": 10**3, "bit": 1}
    for suffix, mult in units.items():
        if rate.endswith(suffix):
            try:
                value = float(rate[: -len(suffix)])
            except ValueError:
                break
            if value > 0:
                return int(value * mult)
            break
    raise ValueError(f"bad rate {rate!r} (e.g. 20mbit, 1gbit)")


TBF_LATENCY_MS = 50


def tbf_burst(rate):
    """Bytes of tbf's bucket: 10 ms at the rate (at least 32 KiB), enough for the kernel's
    timer granularity at gigabit rates."""
    return max(32 * 1024, rate_bits(rate) // 8 // 100)


def tbf(rate):
    """tbf's options for a rate: its bucket (tbf_burst) and TBF_LATENCY_MS of queue."""
    return ["tbf", "rate", rate, "burst", str(tbf_burst(rate)), "latency", f"{TBF_LATENCY_MS}ms"]


LINK = "10:"  # the handle of a link's tbf, which a volatile pair's classes hang under


def shaping(dev, rate=None, delay_ms=0.0):
    """The tc commands (argument lists) that give dev's egress a rate and a delay: tbf alone,
    netem alone, or netem with tbf as its child; the tbf is LINK."""
    cmds = []
    tbf_opts = [] if rate is None else tbf(rate)
    if delay_ms > 0:
        cmds.append(["tc", "qdisc", "replace", "dev", dev, "root", "handle", "1:", "netem",
                     "delay", f"{delay_ms}ms", "limit", "100000"])  # fmt: skip
        if tbf_opts:
            cmds.append(["tc", "qdisc", "replace", "dev", dev, "parent", "1:1", "handle", LINK,
                         *tbf_opts])  # fmt: skip
    elif tbf_opts:
        cmds.append(["tc", "qdisc", "replace", "dev", dev, "root", "handle", LINK, *tbf_opts])
    return cmds


# ---------------------------------------------------------------------------------------------
# Volatile pairs

SCHEMA = "pcdc-volatile/1"  # the record of one test's applied schedule
STATES = ("good", "bad")
HTB = "20:"  # under LINK: class 20:1 is everything but the volatile pairs
QUANTUM = str(64 * 1024)  # htb's round robin between the pair and the rest, in bytes


@dataclass(frozen=True)
class VolatilePair:
    """A server-client pair (link indexes) whose rate alternates between good_rate and
    bad_rate (tc rates) for exponentially distributed durations with means mean_good_s and
    mean_bad_s: our model of a path that "sometimes drops" (Chen et al., Section VI-C), not a
    measured one. ValueError naming what is wrong."""

    server: int
    client: int
    good_rate: str
    bad_rate: str
    mean_good_s: float
    mean_bad_s: float

    def __post_init__(self):
        for name in ("server", "client"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name} must be a link index, got {v!r}")
        if not rate_bits(self.bad_rate) < rate_bits(self.good_rate):
            raise ValueError(f"bad rate {self.bad_rate} is not below good rate {self.good_rate}")
        for name in ("mean_good_s", "mean_bad_s"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v < math.inf:
                raise ValueError(f"{name} must be positive seconds, got {v!r}")

    @property
    def addrs(self):
        """(client address, server address): the pair as the impact table and the daemon name it."""
        return client_addr(self.client), server_addr(self.server)

    def rate(self, state):
        return self.bad_rate if state == "bad" else self.good_rate


def test_key(seed, run, test):
    """The schedule key of one test of a run ("measure" with run 0 for the impact factors):
    from the scenario's seed, the run and the test but not the mode, so that PCDC and FullMesh
    of a run, and every congestion control, face the same schedule. Pair i of the scenario's
    volatile pairs follows the key f"{key}/{i}"."""
    return f"{seed}/{run}/{test}"


def schedule(key, mean_good_s, mean_bad_s):
    """The endless on/off schedule of one pair: (state, seconds), the states alternating, the
    durations exponential with the given means; the first state is drawn with the long-run
    shares (bad: mean_bad_s / (mean_good_s + mean_bad_s)), so that a test may start in either
    and, the durations being memoryless, the schedule is stationary from its start. Seeded by
    key (random.Random hashes a string with SHA-512, the same on every Python 3): the same key
    gives the same schedule."""
    rng = random.Random(key)
    bad = rng.random() < mean_bad_s / (mean_good_s + mean_bad_s)
    while True:
        mean = mean_bad_s if bad else mean_good_s
        yield STATES[bad], rng.expovariate(1 / mean)
        bad = not bad


def _volatile_ids(m):
    """(htb class, tbf handle) of the m-th volatile pair of one server link."""
    return f"{HTB[:-1]}:{m + 2:x}", f"{0x30 + m:x}:"


def volatile_setup(dev, link_rate, pairs):
    """The tc commands that give the volatile pairs of one server link dev (its rate link_rate,
    shaped by shaping() as LINK) their classes, each pair's tbf at its good rate. Class 20:1
    keeps the link's queue limit (the bfifo the link's tbf had)."""
    limit = rate_bits(link_rate) // 8 * TBF_LATENCY_MS // 1000 + tbf_burst(link_rate)  # as tc's
    htb_class = ["htb", "rate", link_rate, "quantum", QUANTUM]
    cmds = [
        ["tc", "qdisc", "add", "dev", dev, "parent", f"{LINK[:-1]}:1", "handle", HTB, "htb",
         "default", "1"],
        ["tc", "class", "add", "dev", dev, "parent", HTB, "classid", f"{HTB}1", *htb_class],
        ["tc", "qdisc", "add", "dev", dev, "parent", f"{HTB}1", "handle", "21:", "bfifo", "limit",
         str(limit)],
    ]  # fmt: skip
    for m, p in enumerate(pairs):
        cls, leaf = _volatile_ids(m)
        client, server = p.addrs
        cmds += [
            ["tc", "class", "add", "dev", dev, "parent", HTB, "classid", cls, *htb_class],
            ["tc", "qdisc", "add", "dev", dev, "parent", cls, "handle", leaf, *tbf(p.good_rate)],
            ["tc", "filter", "add", "dev", dev, "parent", HTB, "protocol", "ip", "prio", "1",
             "u32", "match", "ip", "src", f"{server}/32", "match", "ip", "dst", f"{client}/32",
             "flowid", cls],
        ]  # fmt: skip
    return cmds


def volatile_rate(dev, m, rate):
    """The tc command that sets the m-th volatile pair of server link dev to rate."""
    cls, leaf = _volatile_ids(m)
    return ["tc", "qdisc", "change", "dev", dev, "parent", cls, "handle", leaf, *tbf(rate)]


def state_seconds(switches, stopped_at, start, end, state="bad"):
    """Seconds of [start, end] (seconds since the record's start) that a pair spent in state,
    from its recorded switches: each in force from its "at" to the next one's, the last until
    stopped_at."""
    total = 0.0
    for k, sw in enumerate(switches):
        until = switches[k + 1]["at"] if k + 1 < len(switches) else stopped_at
        if sw["state"] == state:
            total += max(0.0, min(until, end) - max(sw["at"], start))
    return total


class Volatility:
    """The volatile pairs' schedules, applied from start() to stop() by a thread of this
    process (no process of its own: nothing outlives the driver, and a SIGTERM that unwinds the
    driver stops it): pair i follows schedule(f"{key}/{i}", ...), each state set by
    apply(i, rate) when its planned time comes. The planned times add the drawn durations, so
    the time tc takes does not shift the schedule. stop() ends it, sets every pair back to its
    good rate (unless restore is false) and returns the record:

        {"schema", "key", "started" (UTC), "stopped_at" (s), "error" (None or what failed),
         "pairs": [{"client", "server", "good_rate", "bad_rate", "mean_good_s", "mean_bad_s",
                    "key", "switches": [{"planned", "at", "state", "rate"}]}],
         "windows": [{"name", "from", "to"}]}

    with times in seconds since start(); "at" is when tc had applied the state. window(name)
    records when something (a transfer) ran. Also a context manager."""

    def __init__(self, pairs, apply, key, clock=time.monotonic, registry=None):
        self.pairs, self.apply, self.key, self.clock = list(pairs), apply, key, clock
        self.registry = set() if registry is None else registry
        self.record = None
        self._stop = threading.Event()
        self._thread = None
        self._t0 = 0.0

    def now(self):
        return self.clock() - self._t0

    def start(self):
        self._t0 = self.clock()
        self.record = {
            "schema": SCHEMA,
            "key": self.key,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "stopped_at": None,
            "error": None,
            "pairs": [
                {
                    "client": p.addrs[0],
                    "server": p.addrs[1],
                    "good_rate": p.good_rate,
                    "bad_rate": p.bad_rate,
                    "mean_good_s": p.mean_good_s,
                    "mean_bad_s": p.mean_bad_s,
                    "key": f"{self.key}/{i}",
                    "switches": [],
                }
                for i, p in enumerate(self.pairs)
            ],
            "windows": [],
        }
        self.registry.add(self)
        self._thread = threading.Thread(target=self._run, name="volatility", daemon=True)
        self._thread.start()
        return self

    def _run(self):
        if not self.pairs:
            return
        entries = self.record["pairs"]
        plans = [schedule(e["key"], p.mean_good_s, p.mean_bad_s)
                 for p, e in zip(self.pairs, entries, strict=True)]  # fmt: skip
        due = [0.0] * len(self.pairs)
        while True:
            i = min(range(len(due)), key=due.__getitem__)
            if self._stop.wait(max(0.0, due[i] - self.now())):
                return
            state, seconds = next(plans[i])
            rate = self.pairs[i].rate(state)
            try:
                self.apply(i, rate)
            except (RuntimeError, OSError, subprocess.SubprocessError) as e:
                self.record["error"] = f"pair {i}: setting {rate}: {e}"
                return
            entries[i]["switches"].append(
                {"planned": round(due[i], 3), "at": round(self.now(), 3), "state": state,
                 "rate": rate}
            )  # fmt: skip
            due[i] += seconds

    def stop(self, restore=True):
        if self._thread is None:
            return self.record
        self._stop.set()
        self._thread.join()
        self._thread = None
        self.registry.discard(self)
        self.record["stopped_at"] = round(self.now(), 3)
        for i, p in enumerate(self.pairs if restore else []):
            try:
                self.apply(i, p.good_rate)
            except (RuntimeError, OSError, subprocess.SubprocessError) as e:
                self.record["error"] = self.record["error"] or f"pair {i}: restoring: {e}"
        return self.record

    @contextlib.contextmanager
    def window(self, name):
        start = self.now()
        try:
            yield
        finally:
            self.record["windows"].append(
                {"name": name, "from": round(start, 3), "to": round(self.now(), 3)}
            )

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False


class Testbed:
    """The three namespaces; client_rates / server_rates are tbf rates ("20mbit") per link,
    client_delays / server_delays one-way delays in ms per link (netem; None: no delay),
    volatile the VolatilePairs (their tc classes are made by up(), their schedules run by
    volatility())."""

    def __init__(self, prefix, client_rates, server_rates, client_delays=None,
                 server_delays=None, volatile=()):  # fmt: skip
        self.client, self.router, self.server = prefix + "c", prefix + "r", prefix + "s"
        self.client_rates, self.server_rates = list(client_rates), list(server_rates)
        self.client_delays = list(client_delays or [0.0] * len(self.client_rates))
        self.server_delays = list(server_delays or [0.0] * len(self.server_rates))
        if len(self.client_delays) != len(self.client_rates) or len(self.server_delays) != len(
            self.server_rates
        ):
            raise ValueError("one delay per link")
        for r in self.client_rates + self.server_rates:
            rate_bits(r)
        self.volatile = list(volatile)
        pairs = [(p.server, p.client) for p in self.volatile]
        if len(set(pairs)) != len(pairs):
            raise ValueError("a volatile pair is given twice")
        if any(j >= len(self.server_rates) or k >= len(self.client_rates) for j, k in pairs):
            raise ValueError("a volatile pair names a link that does not exist")
        self._running = set()  # the Volatility objects started and not stopped

    def _volatile_place(self, i):
        """(server link device, index among that link's volatile pairs) of volatile pair i."""
        j = self.volatile[i].server
        return f"s{j}", [p.server for p in self.volatile[:i]].count(j)

    def set_volatile_rate(self, i, rate):
        """Sets volatile pair i to rate (its tbf on the server's link)."""
        dev, m = self._volatile_place(i)
        sh(volatile_rate(dev, m, rate), self.server)

    def volatility(self, key):
        """A Volatility of this testbed's volatile pairs under schedule key (test_key)."""
        return Volatility(self.volatile, self.set_volatile_rate, key, registry=self._running)

    @property
    def client_addrs(self):
        return [client_addr(k) for k in range(len(self.client_rates))]

    @property
    def server_addrs(self):
        return [server_addr(j) for j in range(len(self.server_rates))]

    def _link(self, ns, dev, peer_dev, addr, gw, table):
        sh(f"ip link add {dev} netns {ns} type veth peer name {peer_dev} netns {self.router}")
        sh(f"ip -n {ns} addr add {addr}/24 dev {dev}")
        sh(f"ip -n {self.router} addr add {gw}/24 dev {peer_dev}")
        sh(f"ip -n {ns} link set {dev} up")
        sh(f"ip -n {self.router} link set {peer_dev} up")
        sh(f"ip -n {ns} rule add from {addr} table {table}")
        sh(f"ip -n {ns} route add default via {gw} dev {dev} table {table}")

    @staticmethod
    def _shape(ns, dev, rate, delay_ms):
        for cmd in shaping(dev, rate, delay_ms):
            try:
                sh(cmd, ns)
            except RuntimeError as e:
                if "netem" in cmd:
                    raise RuntimeError(f"no netem in this kernel (link delays need it): {e}") from e
                raise

    def up(self):
        """Creates everything; on failure removes what it made and raises."""
        try:
            for ns in (self.client, self.router, self.server):
                sh(f"ip netns add {ns}")
                sh(f"ip -n {ns} link set lo up")
            sh("sysctl -q -w net.ipv4.ip_forward=1", self.router)
            for k, rate in enumerate(self.client_rates):
                a = client_addr(k)
                gw = a.rsplit(".", 1)[0] + ".254"
                self._link(self.client, f"c{k}", f"rc{k}", a, gw, 100 + k)
                self._shape(self.router, f"rc{k}", rate, self.client_delays[k])
                self._shape(self.client, f"c{k}", None, self.client_delays[k])
            for j, rate in enumerate(self.server_rates):
                a = server_addr(j)
                gw = a.rsplit(".", 1)[0] + ".254"
                self._link(self.server, f"s{j}", f"rs{j}", a, gw, 100 + j)
                self._shape(self.server, f"s{j}", rate, self.server_delays[j])
                self._shape(self.router, f"rs{j}", None, self.server_delays[j])
                mine = [p for p in self.volatile if p.server == j]
                for cmd in volatile_setup(f"s{j}", rate, mine) if mine else []:
                    sh(cmd, self.server)
            gw0 = client_addr(0).rsplit(".", 1)[0] + ".254"
            sh(f"ip -n {self.client} route add default via {gw0} dev c0")
            sgw0 = server_addr(0).rsplit(".", 1)[0] + ".254"
            sh(f"ip -n {self.server} route add default via {sgw0} dev s0")
            for ns in (self.client, self.server):
                sh("sysctl -q -w net.mptcp.enabled=1", ns)
            sh("sysctl -q -w net.mptcp.pm_type=1", self.client)
            sh(f"ip -n {self.server} mptcp limits set subflows 8 add_addr_accepted 0")
            for j in range(1, len(self.server_rates)):
                sh(f"ip -n {self.server} mptcp endpoint add {server_addr(j)} dev s{j} signal")
        except BaseException:
            self.down()
            raise
        return self

    def down(self):
        """Stops the volatile pairs' schedules, kills what still runs in the namespaces and
        deletes them (the veths go with them)."""
        for v in list(self._running):
            v.stop(restore=False)
        for ns in (self.client, self.router, self.server):
            pids = sh(f"ip netns pids {ns}", check=False).stdout.split()
            for pid in pids:
                subprocess.run(["kill", "-9", pid], check=False)
            sh(f"ip netns del {ns}", check=False)

    def __enter__(self):
        return self.up()

    def __exit__(self, *exc):
        self.down()
        return False
