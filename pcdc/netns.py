"""A multihomed client and server in network namespaces, for the tests, the experiment's host
smoke run and its scenarios in the testbed guest.

    client (userspace PM) --c<k>--rc<k>-- router --rs<j>--s<j>-- server (in-kernel PM)

Client link k: 10.77.<k+1>.1/24 (gateway .254); server link j: 10.77.<101+j>.2/24. Each side has
one routing table per address (source policy routing), so a subflow from a given address leaves
by its own link; the router forwards. Bandwidths are token bucket filters (tbf) on the
download direction: the router's rc<k> (client link k) and the server's s<j> (server link j).
A link's delay (netem, both directions, so a pair's RTT is twice the sum of its two links'
delays) needs a kernel with netem: the testbed guest, not this project's development machines,
where links have no delay. The server announces its addresses beyond the first (`signal`
endpoints), so the client's path manager learns them from MPTCP_EVENT_ANNOUNCED.
"""

import subprocess

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


def shaping(dev, rate=None, delay_ms=0.0):
    """The tc commands (argument lists) that give dev's egress a rate and a delay: tbf alone,
    netem alone, or netem with tbf as its child. tbf's bucket holds 10 ms at the rate (at least
    32 KiB), enough for the kernel's timer granularity at gigabit rates."""
    cmds = []
    tbf = []
    if rate is not None:
        burst = max(32 * 1024, rate_bits(rate) // 8 // 100)
        tbf = ["tbf", "rate", rate, "burst", str(burst), "latency", "50ms"]
    if delay_ms > 0:
        cmds.append(["tc", "qdisc", "replace", "dev", dev, "root", "handle", "1:", "netem",
                     "delay", f"{delay_ms}ms", "limit", "100000"])  # fmt: skip
        if tbf:
            cmds.append(["tc", "qdisc", "replace", "dev", dev, "parent", "1:1", "handle", "10:",
                         *tbf])  # fmt: skip
    elif tbf:
        cmds.append(["tc", "qdisc", "replace", "dev", dev, "root", *tbf])
    return cmds


class Testbed:
    """The three namespaces; client_rates / server_rates are tbf rates ("20mbit") per link,
    client_delays / server_delays one-way delays in ms per link (netem; None: no delay)."""

    def __init__(self, prefix, client_rates, server_rates, client_delays=None,
                 server_delays=None):  # fmt: skip
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
        """Kills what still runs in the namespaces and deletes them (the veths go with them)."""
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
