"""The video experiments as batches of cells (pure data; used by video_run.py, tested in
test_record.py).

A batch is one emulated network (topology, clients, link draws, content): built once per guest
boot, it carries every run of its cells. A cell is what a run varies on that network: the
path-selection algorithm, the server's MPTCP scheduler, the client's receive buffer, MPTCP or
plain TCP. Runs of one batch are interleaved (run 1 of every cell, then run 2, ...), so slow
drifts of the machine fall on every cell alike.
"""

import dataclasses
import fnmatch

from mpqoe import dash_harness
from mpqoe.runs import drawn_order

GA_ALGORITHMS = ("ga", "pd-bw", "pd-delay", "fd-bw", "fd-delay", "none")
JOIN_INTERVAL_S = 4.0  # the GA paper's section IV.A.1: a client joins every 4 s
# the player profiles (dashjs-harness/player/players.json)
PLAYERS = tuple(sorted(dash_harness.players()["players"]))
GA_SEGMENT_S = 4.0  # the ga content's segments unless a batch says otherwise


@dataclasses.dataclass(frozen=True)
class Batch:
    experiment: str
    topology: str
    clients: int
    video_s: float
    seed: int = 1
    segment_s: float = GA_SEGMENT_S
    content_set: str = "ga"
    links: str = "paper"
    bandwidth_mean: float | None = None
    bandwidth_std: float | None = None
    access_mbps: float | None = None
    # ((link "a-b", field, value), ...) applied to the descriptor after it is written
    link_overrides: tuple = ()
    delay_diff_ms: int | None = None
    # (from host, to host, start s after the first player): one iperf3 TCP flow from then on
    background: tuple | None = None
    controller: str = "standalone"  # or "floodlight": the Floodlight module in Floodlight
    # the player profile (dashjs-harness/player/players.json): "modern" (dash.js 5.2.1) or
    # "paper" (dash.js 2.5.0 as the GA paper's authors set it up)
    player: str = "modern"
    # the run numbers this batch makes of each of its cells (None: every run of the
    # invocation): a design with several link draws gives each draw its own runs of a cell
    run_numbers: tuple | None = None
    # runs of the batch in a random order drawn per run from this seed (recorded in run.json),
    # instead of interleaved by run number (None)
    order_seed: int | None = None
    # a named attachment of the topology (topologies/attachments/), e.g. "framework"
    attach: str | None = None

    @property
    def name(self):
        d = "" if self.delay_diff_ms is None else f".d{self.delay_diff_ms}"
        plain = self.content_set == "ga" and self.segment_s == GA_SEGMENT_S
        seg = "" if plain else f".seg{self.segment_s:g}"
        bg = ".bg" if self.background else ""
        fl = "" if self.controller == "standalone" else f".{self.controller}"
        at = "" if self.attach is None else f".{self.attach}"
        pl = "" if self.player == "modern" else f".{self.player}"
        return (
            f"{self.topology}.c{self.clients}{d}{seg}{bg}{fl}{at}{pl}.s{self.seed}"
            f".v{self.video_s:g}"
        )

    def runs(self, numbers):
        """The run numbers of `numbers` (an invocation's) that this batch makes."""
        if self.run_numbers is None:
            return list(numbers)
        return [k for k in numbers if k in self.run_numbers]

    def order(self, runs):
        """runs ([(cell, k)]) in the order the batch makes them: as given, or, when the batch
        has an order seed, sorted by a pseudo-random draw of each run's own (seed, batch, cell,
        run), so that a resumed batch keeps the relative order of what is left."""
        if self.order_seed is None:
            return list(runs)
        return drawn_order(runs, self.order_seed, self.name, lambda run: (run[0].name, run[1]))

    def overrides(self):
        """{"a-b": {field: value}} for mpqoe.descriptor.override_links."""
        out = {}
        for link, key, value in self.link_overrides:
            out.setdefault(link, {})[key] = value
        return out

    def with_clients_args(self):
        """Arguments of `bin/mpqoe topology with-clients` for this network."""
        a = [self.topology, "--clients", str(self.clients), "--seed", str(self.seed)]
        a += ["--links", self.links.upper()]
        if self.bandwidth_mean is not None:
            a += ["--bandwidth-mean", f"{self.bandwidth_mean:g}"]
        if self.bandwidth_std is not None:
            a += ["--bandwidth-std", f"{self.bandwidth_std:g}"]
        if self.access_mbps is not None:
            a += ["--access-capacity", f"{self.access_mbps:g}"]
        if self.attach is not None:
            a += ["--attach", self.attach]
        return a


@dataclasses.dataclass(frozen=True)
class Cell:
    batch: Batch
    algorithm: str
    scheduler: str = "default"
    rcvbuf_kb: int = 0
    tcp: bool = False

    @property
    def name(self):
        b = self.batch
        parts = [b.topology, f"c{b.clients}"]
        if b.experiment == "ga-sched":
            parts += [self.scheduler, f"b{self.rcvbuf_kb}"]
        if b.delay_diff_ms is not None:
            parts.append(f"d{b.delay_diff_ms}")
        if b.experiment == "qomra":
            parts.append(f"seg{b.segment_s:g}")
        if b.background:
            parts.append("bg")
        if b.controller != "standalone":
            parts.append(b.controller)
        if b.player != default_player(b.experiment):
            parts.append(b.player)
        if b.video_s != default_video_s(b.experiment, b.topology, b.video_s):
            parts.append(f"v{b.video_s:g}")
        return ".".join([*parts, self.algorithm])

    def controller_algorithm(self):
        """The controller's --algorithm: plain TCP connections are routed by its shortest-path
        forwarding whatever it is, so the TCP baseline runs with none."""
        return "none" if self.algorithm == "tcp" else self.algorithm

    @property
    def segment_routing(self):
        """QoMRA routes with segment routing (its paper's section III.C)."""
        return self.algorithm == "qomra"

    def controller_args(self):
        return ["--segment-routing"] if self.segment_routing else []

    def params(self):
        b = self.batch
        return {
            "topology": b.topology,
            "clients": b.clients,
            "algorithm": self.algorithm,
            "scheduler": self.scheduler,
            "rcvbuf_kb": self.rcvbuf_kb,
            "tcp": self.tcp,
            "segment_s": b.segment_s,
            "video_s": b.video_s,
            "seed": b.seed,
            "content_set": b.content_set,
            "links": b.links,
            "player": b.player,
            "delay_diff_ms": b.delay_diff_ms,
            "controller": b.controller,
        }


DEFAULT_VIDEO_S = {
    "ga-topo": 120.0,
    "ga-sched": 120.0,
    "ga-delay": 60.0,
    "qomra": 120.0,
    "ga-topo-paper": 120.0,
    "ga-delay-paper": 60.0,
    "calibrate-paper": 60.0,
}
# the headline cells' video: CompuServe in ga-topo-paper plays the paper's 9 minutes
HEADLINE_VIDEO_S = {("ga-topo-paper", "compuserve"): 540.0}


def default_video_s(experiment, topology, otherwise=None):
    """The video length an experiment's batches on this topology have unless asked otherwise."""
    return HEADLINE_VIDEO_S.get((experiment, topology), DEFAULT_VIDEO_S.get(experiment, otherwise))


# The GA paper's set-up as its authors ran it (docs/results/ga-paper.md, "Departures"): their
# player (dash.js 2.5.0, fast switching, BOLA off), the framework's 2 s segments (its MPD,
# BigBuckBunny_2s), its wiring (clients' interfaces on three switches, the server's links on three
# others), and the paper's minRTT scheduler with a 256 KB client buffer (section IV.B.1).
PAPER_SETUP = {"player": "paper", "segment_s": 2.0, "attach": "framework"}
PAPER_CELL = {"scheduler": "minrtt", "rcvbuf_kb": 256}
# experiments that play the paper set-up (their cells name another player when run with one)
PAPER_EXPERIMENTS = ("ga-topo-paper", "ga-delay-paper", "calibrate-paper", "demo", "ci")


def default_player(experiment):
    return "paper" if experiment in PAPER_EXPERIMENTS else "modern"


def paired_by(experiment):
    """The run column that pairs an experiment's runs across the algorithms, "seed" for a
    design with link draws (its batches make their own runs of a cell), else None: the report
    compares by it, and the publisher keeps the failed attempts as they ended for it."""
    plan = EXPERIMENTS[experiment]() if experiment in EXPERIMENTS else []
    return "seed" if any(b.run_numbers is not None for b, _cells in plan) else None


def design_runs(experiment):
    """Runs per cell of an experiment whose design fixes them (its draws, its runs a count),
    else None (the invocation's choice)."""
    return {
        "ga-topo-paper": len(DRAWS) * RUNS_PER_DRAW,
        "ga-delay-paper": 5,
        "calibrate-paper": 3,
    }.get(experiment)


# ga-topo-paper's design: link draws (seeds) per topology, each algorithm's runs on every draw
DRAWS = (1, 2, 3, 4, 5)
RUNS_PER_DRAW = 2
ORDER_SEED = 1  # the seed of the run order within each batch (recorded in every run)


def ga_topo(video_s=120.0):
    """GA paper section IV.B.1: CompuServe, Custom and Jellyfish with the paper's four client
    groups (5, 10, 20, 30; Table I/II), the six algorithms. video_run.py's --max-clients keeps
    what a machine sustains; `--video 540` gives the paper's 9-minute check batches (cells
    *.v540.*)."""
    batches = [
        Batch("ga-topo", t, n, video_s)
        for n in (5, 10, 20, 30)
        for t in ("compuserve", "custom12", "jellyfish20")
    ]
    return [(b, [Cell(b, a) for a in GA_ALGORITHMS]) for b in batches]


def ga_sched(video_s=120.0, algorithms=("ga", "pd-delay", "fd-bw")):
    """GA paper section IV.B.2: the upstream default scheduler and DAPS x the client's receive
    buffer 125 / 256 / 512 KB on CompuServe, bandwidths drawn so that two paths carry the top
    quality: the links of ga-topo's 5-client CompuServe network (Table I/II), so only the
    scheduler and the buffer differ from that batch (docs/video-experiments.md says why)."""
    b = Batch("ga-sched", "compuserve", 5, video_s)
    cells = [
        Cell(b, a, scheduler=s, rcvbuf_kb=kb)
        for s in ("default", "daps")
        for kb in (125, 256, 512)
        for a in algorithms
    ]
    return [(b, cells)]


def ga_delay(video_s=60.0, diffs=(0, 50, 100, 150, 200)):
    """The GA paper's motivating observation (section I): one client, two disjoint paths of
    the same bandwidth (1.5 Mbit/s: both are needed for the top quality), the second path's
    one-way delay raised by 0-200 ms; the controller's pd-bw puts one subflow on each path."""
    out = []
    for d in diffs:
        b = Batch("ga-delay", "delay-pair", 1, video_s, links="descriptor",
                  link_overrides=(("b-s", "delayMs", 5.0 + d),), delay_diff_ms=d)  # fmt: skip
        out.append((b, [Cell(b, "pd-bw")]))
    return out


QOMRA_ALGORITHMS = ("qomra", "tcp", "ga")
QOMRA_CLIENTS = 5


def qomra(video_s=120.0, segments=(2, 4, 6, 8, 10), clients=QOMRA_CLIENTS):
    """The QoMRA paper (section V.B): qomra-dc, one client per edge switch with three interfaces,
    streaming from two servers, QoMRA against single-path TCP and the GA. The paper has 8
    clients; this machine sustains 5 (docs/results/qomra-paper.md), the first 5 listed, h1-h5.
    With 6 s segments one iperf3 TCP flow (srv1 to the last client, unlimited) starts 50 s
    after the first player (Fig. 5-6, Table II); every segment length also runs without it
    (Fig. 7)."""
    out = []
    for seg in segments:
        b = Batch("qomra", "qomra-dc", clients, video_s, segment_s=float(seg),
                  content_set="qomra", links="descriptor")  # fmt: skip
        out.append((b, [Cell(b, a, tcp=a == "tcp") for a in QOMRA_ALGORITHMS]))
    b = Batch("qomra", "qomra-dc", clients, video_s, segment_s=6.0, content_set="qomra",
              links="descriptor", background=("srv1", f"h{clients}", 50.0))  # fmt: skip
    out.append((b, [Cell(b, a, tcp=a == "tcp") for a in QOMRA_ALGORITHMS]))
    return out


def ga_topo_paper(video_s=None, draws=DRAWS, runs_per_draw=RUNS_PER_DRAW):
    """The GA paper's section IV.B.1 in its authors' set-up (PAPER_SETUP, PAPER_CELL), with 5
    clients (the calibration) on CompuServe, Custom and Jellyfish: per topology, each link draw
    (seed) is a batch that makes runs_per_draw runs of every algorithm, in a random order, so a
    cell's runs 1..len(draws) x runs_per_draw pair by draw. CompuServe, the headline cells, plays
    the paper's 9 minutes, the others 120 s (video_s, when given, is every batch's)."""
    out = []
    for t in ("compuserve", "custom12", "jellyfish20"):
        v = video_s or default_video_s("ga-topo-paper", t)
        for i, d in enumerate(draws):
            runs = tuple(range(i * runs_per_draw + 1, (i + 1) * runs_per_draw + 1))
            b = Batch("ga-topo-paper", t, 5, v, seed=d, run_numbers=runs,
                      order_seed=ORDER_SEED, **PAPER_SETUP)  # fmt: skip
            out.append((b, [Cell(b, a, **PAPER_CELL) for a in GA_ALGORITHMS]))
    return out


def ga_delay_paper(video_s=60.0, diffs=(0, 50, 100, 150, 200)):
    """ga_delay's cells (section I's observation) in the authors' set-up: their player, 2 s
    segments, minRTT and 256 KB (the delay pair keeps its own wiring: one path per interface)."""
    out = []
    for b, cells in ga_delay(video_s, diffs):
        nb = dataclasses.replace(b, experiment="ga-delay-paper", player="paper",
                                 segment_s=PAPER_SETUP["segment_s"])  # fmt: skip
        out.append((nb, [dataclasses.replace(c, batch=nb, **PAPER_CELL) for c in cells]))
    return out


def calibrate_paper(video_s=60.0, counts=(1, 3, 5, 8)):
    """calibrate's generous network in the authors' set-up: one player alone (what the player
    does on a quiet host), 3, the client count the sweeps use (5) and the next the QoMRA
    topology needs (8); the largest count whose runs all play the top bitrate without stalls,
    and the host CPU they took (the limit above which a sweep's run is marked)."""
    out = []
    for n in counts:
        b = Batch("calibrate-paper", "compuserve", n, video_s, links="descriptor",
                  order_seed=ORDER_SEED, **PAPER_SETUP)  # fmt: skip
        out.append((b, [Cell(b, "ga", **PAPER_CELL)]))
    return out


def demo():
    b = Batch("demo", "compuserve", 3, 60.0, **PAPER_SETUP)
    return [(b, [Cell(b, a, **PAPER_CELL) for a in ("ga", "none", "fd-bw")])]


def ci():
    b = Batch("ci", "compuserve", 2, 20.0, **PAPER_SETUP)
    return [(b, [Cell(b, a, **PAPER_CELL) for a in ("ga", "none")])]


def calibrate(video_s=60.0):
    """The set-up's own distortion: N clients on a generous network (CompuServe's nominal
    45 Mbit/s links and geographic delays of 1-16 ms) must all play the top bitrate without
    stalls; the largest N that does is the most the sweeps use on this machine."""
    out = []
    for n in (5, 8, 10):
        b = Batch("calibrate", "compuserve", n, video_s, links="descriptor")
        out.append((b, [Cell(b, "ga")]))
    return out


EXPERIMENTS = {
    "demo": demo,
    "ci": ci,
    "calibrate": calibrate,
    "calibrate-paper": calibrate_paper,
    "ga-topo": ga_topo,
    "ga-topo-paper": ga_topo_paper,
    "ga-sched": ga_sched,
    "ga-delay": ga_delay,
    "ga-delay-paper": ga_delay_paper,
    "qomra": qomra,
}


def experiment_plan(experiment, video_s=None):
    """[(batch, [cells])] of an experiment, its videos video_s long when given (demo and ci keep
    their own length)."""
    make = EXPERIMENTS[experiment]
    return make(video_s) if video_s and experiment not in ("demo", "ci") else make()


def limit_clients(plan, experiment, max_clients):
    """(the plan without its batches of more than max_clients clients, their names); the
    calibration keeps every batch (it measures where the limit lies)."""
    if experiment.startswith("calibrate"):
        return plan, []
    big = sorted({b.name for b, _c in plan if b.clients > max_clients})
    return [(b, c) for b, c in plan if b.clients <= max_clients], big


def with_batch(plan, **fields):
    """The plan with every batch (and its cells) changed by `fields` (e.g. controller=...,
    player=...)."""
    out = []
    for b, cells in plan:
        nb = dataclasses.replace(b, **fields)
        out.append((nb, [dataclasses.replace(c, batch=nb) for c in cells]))
    return out


def with_controller(plan, controller):
    """The plan with every batch (and its cells) run by `controller`."""
    return with_batch(plan, controller=controller)


def select(plan, patterns):
    """The plan with only the cells whose names match one of the comma-separated shell
    patterns (all when patterns is None); batches left without cells are dropped."""
    if not patterns:
        return plan
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    out = []
    for b, cells in plan:
        keep = [c for c in cells if any(fnmatch.fnmatchcase(c.name, p) for p in pats)]
        if keep:
            out.append((b, keep))
    return out
