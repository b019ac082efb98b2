"""Mininet networks built from mpqoe topology descriptors (topologies/README.md).

Switch `X` of a descriptor becomes the OVS bridge `s<dpid>` (DPID written as 16 hex digits);
host `H` keeps its name and gets one veth per descriptor interface, `H-eth0`, `H-eth1`, ...,
each with the descriptor's IP (as a /8: every address is on-link, the controller answers ARP)
and MAC. Ports are numbered by the descriptor rule: links in list order, then host interfaces in
hosts order, so OpenFlow port numbers equal the controller's. `check_port_numbers` verifies it
against `ovs-ofctl show`.

Run with Debian's /usr/bin/python3 (Mininet's package lives there), as root, or through mn:

    mn --custom python/mpqoe/topo.py --topo mpqoe,compuserve \
       --controller remote,ip=127.0.0.1,port=6653 [--test mpqoe_ports]

Topology arguments after the name: `clients=N`, `shape=0`, `netem=0|1`, `fail=standalone`.
"""

import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from typing import NamedTuple

from mininet.link import Link, TCIntf, TCLink
from mininet.node import Host, OVSSwitch
from mininet.topo import Topo


def _this_file():
    # mn --custom exec()s this file without __file__; the code object still knows its path.
    return os.path.abspath(inspect.getsourcefile(_this_file) or sys.argv[0])


TOPOLOGY_DIR = os.environ.get(
    "MPQOE_TOPOLOGIES",
    os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(_this_file()))), "topologies"),
)
PREFIX_LEN = 8
OFCTL = ["ovs-ofctl", "-O", "OpenFlow13"]
# Linux interface names are at most 15 bytes.
_IFNAMSIZ = 15


class MpqoeError(Exception):
    """A descriptor or a network that does not match the descriptor."""


# ----------------------------------------------------------------------------------------------
# Descriptors


def load_descriptor(ref):
    """A descriptor dict from a dict, a file path, or an embedded name (topologies/NAME.json)."""
    if isinstance(ref, dict):
        d = ref
    else:
        ref = str(ref)
        path = ref if os.path.isfile(ref) else os.path.join(TOPOLOGY_DIR, ref + ".json")
        if not os.path.isfile(path):
            names = sorted(f[:-5] for f in os.listdir(TOPOLOGY_DIR) if f.endswith(".json"))
            raise MpqoeError(f"no descriptor {ref!r} (file or one of {', '.join(names)})")
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    _validate(d)
    return d


def _validate(d):
    where = d.get("name", "descriptor")
    for key in ("schema", "name", "switches", "links"):
        if key not in d:
            raise MpqoeError(f"{where}: missing {key!r}")
    if d["schema"] != 1:
        raise MpqoeError(f"{where}: schema {d['schema']} (only 1 is known)")
    names = [s["name"] for s in d["switches"]]
    if len(set(names)) != len(names):
        raise MpqoeError(f"{where}: a switch name is repeated")
    dpids = list(switch_dpids(d).values())
    if len(set(dpids)) != len(dpids) or min(dpids) < 1:
        raise MpqoeError(f"{where}: DPIDs must be unique and positive")
    known = set(names)
    for i, link in enumerate(d["links"]):
        for end in ("a", "b"):
            if link[end] not in known:
                raise MpqoeError(f"{where}: link {i} names unknown switch {link[end]!r}")
    hosts = [h["name"] for h in d.get("hosts", [])]
    if len(set(hosts)) != len(hosts):
        raise MpqoeError(f"{where}: a host name is repeated")


def switch_dpids(descriptor):
    """Descriptor switch name -> DPID (explicit, or the 1-based position in `switches`)."""
    return {s["name"]: int(s.get("dpid") or i) for i, s in enumerate(descriptor["switches"], 1)}


def switch_names(descriptor):
    """Descriptor switch name -> Mininet/OVS bridge name `s<dpid>`."""
    return {name: f"s{dpid}" for name, dpid in switch_dpids(descriptor).items()}


def client_switches(descriptor):
    """Where generated clients attach: `clientSwitches`, else every switch without a server."""
    if descriptor.get("clientSwitches"):
        return list(descriptor["clientSwitches"])
    servers = {
        i["switch"]
        for h in descriptor.get("hosts", [])
        if h.get("role") == "server"
        for i in h["interfaces"]
    }
    return [s["name"] for s in descriptor["switches"] if s["name"] not in servers]


def spread_groups(descriptor, n):
    """`with-clients --interface-switches` that puts each generated client's n interfaces on n
    different switches: the descriptor's client switches dealt into n groups (switch j into group
    j mod n)."""
    switches = client_switches(descriptor)
    if len(switches) < n:
        raise MpqoeError(f"{descriptor['name']}: {len(switches)} client switches for {n} groups")
    return ";".join(",".join(switches[k::n]) for k in range(n))


def all_hosts(descriptor, clients=None):
    """The hosts Mininet builds, in port order.

    clients: None (the descriptor's hosts as they are), a list of host dicts (schema `hosts`
    entries, appended after the descriptor's), or a number N. With N, a descriptor that lists
    clients keeps its servers and its first N clients; one that lists none gets N generated
    clients `cK` with the README's addresses, placed round-robin over `client_switches`. That
    placement is NOT the Java scenario's seeded draw: to share clients with the controller, write
    them into a file with `bin/mpqoe topology with-clients NAME -c N -o FILE` and build that file.
    """
    hosts = list(descriptor.get("hosts", []))
    if clients is None:
        return hosts
    if isinstance(clients, list):
        return hosts + clients
    n = int(clients)
    listed = [h for h in hosts if h.get("role") == "client"]
    servers = [h for h in hosts if h.get("role") != "client"]
    if listed:
        if n > len(listed):
            raise MpqoeError(f"{descriptor['name']} lists {len(listed)} clients; {n} requested")
        return servers + listed[:n]
    pool = client_switches(descriptor)
    if not pool:
        raise MpqoeError(f"{descriptor['name']} has no switch where clients may attach")
    generated = []
    for k in range(1, n + 1):
        at = pool[(k - 1) % len(pool)]
        ifaces = [
            {"ip": f"10.0.{i}.{k + 10}", "mac": f"02:00:00:00:{i:02x}:{k + 10:02x}", "switch": at}
            for i in (1, 2, 3)
        ]
        generated.append({"name": f"c{k}", "role": "client", "interfaces": ifaces})
    return servers + generated


class Port(NamedTuple):
    """One switch port of the descriptor rule."""

    switch: str  # descriptor switch name
    port: int  # OpenFlow port number
    kind: str  # "link" or "host"
    peer: str  # peer switch (descriptor name) or host name
    peer_port: int  # peer switch's port, or the host's interface index (0-based)
    index: int  # position in `links`, or in the host list


def port_plan(descriptor, hosts=None):
    """Descriptor switch name -> [Port] in port order (links first, then host interfaces)."""
    hosts = descriptor.get("hosts", []) if hosts is None else hosts
    plan = {s["name"]: [] for s in descriptor["switches"]}

    def take(sw):
        return len(plan[sw]) + 1

    for idx, link in enumerate(descriptor["links"]):
        a, b = link["a"], link["b"]
        pa = take(a)
        pb = pa + 1 if a == b else take(b)
        plan[a].append(Port(a, pa, "link", b, pb, idx))
        plan[b].append(Port(b, pb, "link", a, pa, idx))
    for hidx, host in enumerate(hosts):
        for i, itf in enumerate(host["interfaces"]):
            sw = itf["switch"]
            if sw not in plan:
                raise MpqoeError(f"host {host['name']} interface {i}: unknown switch {sw!r}")
            plan[sw].append(Port(sw, take(sw), "host", host["name"], i, hidx))
    return plan


# ----------------------------------------------------------------------------------------------
# Environment probes


_NETEM = None


def netem_available():
    """Whether `tc qdisc ... netem` works here (tried on a veth in a throwaway netns)."""
    global _NETEM
    if _NETEM is None:
        script = (
            "ip link add mq0 type veth peer name mq1 && ip link set mq0 up && "
            "tc qdisc add dev mq0 root netem delay 1ms"
        )
        try:
            r = subprocess.run(
                ["unshare", "--net", "sh", "-c", script], capture_output=True, timeout=10
            )
            _NETEM = r.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _NETEM = False
    return _NETEM


def ovs_datapath():
    """'kernel' when the openvswitch kernel module is loaded, else 'user' (netdev datapath)."""
    return "kernel" if os.path.isdir("/sys/module/openvswitch") else "user"


def _flag(value):
    """Booleans from Python or from mn's `--topo mpqoe,NAME,shape=0` strings."""
    if isinstance(value, str):
        return value.strip().lower() not in ("0", "false", "no", "off", "")
    return bool(value)


def _queue(value):
    """A queue limit in packets (None or "" for netem's default); MpqoeError when it is not a
    positive integer."""
    if value is None or value == "":
        return None
    try:
        q = int(value)
    except (TypeError, ValueError):
        q = 0
    if q <= 0 or str(q) != str(value).strip():
        raise MpqoeError(f"queue: {value!r} is not a positive number of packets")
    return q


# ----------------------------------------------------------------------------------------------
# Nodes


def _quiet(node, cmd):
    return node.cmd(cmd + " >/dev/null 2>&1")


class MpqoeIntf(TCIntf):
    """TCIntf whose htb class has an explicit quantum (no "quantum ... is big" warnings)."""

    def bwCmds(self, *args, **kwargs):  # noqa: N802 (Mininet's name)
        cmds, parent = super().bwCmds(*args, **kwargs)
        return [c + " quantum 1514" if " htb rate " in c else c for c in cmds], parent


class MpqoeLink(TCLink):
    """TCLink with MpqoeIntf on both ends."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("cls1", MpqoeIntf)
        kwargs.setdefault("cls2", MpqoeIntf)
        super().__init__(*args, **kwargs)


class MpqoeSwitch(OVSSwitch):
    """OVSSwitch whose ports carry no IPv6 of their own.

    With the userspace datapath the ports stay ordinary root-namespace devices: the kernel would
    send router solicitations and MLD reports out of them, which the next switch then hands to
    the controller as packet-ins.
    """

    def start(self, controllers):
        for intf in self.intfList():
            if intf.name != "lo":
                _quiet(self, f"sysctl -w net.ipv6.conf.{intf.name}.disable_ipv6=1")
        return super().start(controllers)


_ETHTOOL_WARNED = []


def _warn_no_ethtool():
    if not _ETHTOOL_WARNED and shutil.which("ethtool") is None:
        _ETHTOOL_WARNED.append(True)
        print(
            "*** WARNING: ethtool missing (apt-get install ethtool): TX checksum offload stays on"
            " and TCP through the OVS userspace datapath will fail",
            file=sys.stderr,
        )


class MpqoeHost(Host):
    """Host configured from its descriptor interfaces (param `mpqoe_intfs`: [(name, ip, mac)]).

    Per interface: the descriptor's MAC and IP/8, TX checksum offload off (the OVS userspace
    datapath forwards veth frames with partial checksums as they are, and the receiver drops
    them), ARP only for addresses of the receiving interface and with that interface's source
    (arp_ignore=1, arp_announce=2), no reverse-path filter. The first interface keeps the
    metric-0 route to 10.0.0.0/8, interface i gets metric 100+i, so unbound sockets (the
    initial MPTCP subflow) leave by the first interface while sockets bound to a device (the
    subflows of `ip mptcp endpoint ... dev`) leave by theirs. IPv6 is off.

    With `mpqoe_source_routing` (DescriptorTopo's source_routing), also source policy routing
    as the GA paper's framework configures its clients: interface i gets routing table 100+i
    with the 10.0.0.0/8 route through it, and `ip rule from <its address> table 100+i`, so that
    whatever leaves with an interface's address leaves by that interface, bound to it or not
    (what a multi-homed host needs when its interfaces sit on different switches).
    """

    def config(self, **params):
        r = super().config(**params)
        _warn_no_ethtool()
        intfs = self.params.get("mpqoe_intfs", [])
        sysctls = [
            "net.ipv6.conf.all.disable_ipv6=1",
            "net.ipv6.conf.default.disable_ipv6=1",
            "net.ipv4.conf.all.rp_filter=0",
            "net.ipv4.conf.default.rp_filter=0",
            "net.ipv4.conf.all.arp_ignore=1",
            "net.ipv4.conf.all.arp_announce=2",
        ]
        for name, _ip, _mac in intfs:
            sysctls += [f"net.ipv4.conf.{name}.rp_filter=0", f"net.ipv4.conf.{name}.arp_ignore=1"]
            sysctls += [f"net.ipv4.conf.{name}.arp_announce=2"]
        _quiet(self, "sysctl -w " + " ".join(sysctls))
        for name, ip, mac in intfs:
            intf = self.intf(name)
            intf.setMAC(mac)
            intf.setIP(f"{ip}/{PREFIX_LEN}")
            _quiet(self, f"ethtool -K {name} tx off")
        net = f"10.0.0.0/{PREFIX_LEN}"
        for i, (name, ip, _mac) in enumerate(intfs):
            if i > 0:
                _quiet(self, f"ip route del {net} dev {name}")
                _quiet(self, f"ip route add {net} dev {name} scope link src {ip} metric {100 + i}")
        if intfs:
            name, ip, _mac = intfs[0]
            _quiet(self, f"ip route replace {net} dev {name} scope link src {ip}")
        if self.params.get("mpqoe_source_routing"):
            for i, (name, ip, _mac) in enumerate(intfs):
                table = 100 + i
                _quiet(self, f"ip route replace {net} dev {name} scope link src {ip} table {table}")
                _quiet(self, f"ip rule add from {ip} table {table}")
        return r


# ----------------------------------------------------------------------------------------------
# The topology


class DescriptorTopo(Topo):
    """A Mininet Topo from a descriptor (dict, path or embedded name).

    clients: see `all_hosts`. shape: TCLink bandwidth (htb) from capacityMbps. netem: None
    probes (`netem_available`), False drops delayMs/lossPct with one printed warning, True uses
    them (fails at link creation when the kernel lacks netem). queue: netem's queue limit in
    packets on every shaped or delayed link (None: netem's default, 1000 packets, which is
    about 6 s at 2 Mbit/s); it bounds the backlog a sender can build on a path. fail_mode: OVS
    fail mode, "secure" (only the controller's rules forward) or "standalone" (a learning
    switch without a controller; loops need stp=True). datapath: None picks `ovs_datapath()`.
    switch_opts: extra OVSSwitch parameters. source_routing: per-interface source policy
    routing on the hosts (MpqoeHost).

    After construction: `descriptor`, `hosts_spec` (all_hosts), `plan` (port_plan), `names`
    (descriptor switch -> s<dpid>), `dropped` (links whose delay/loss were not applied).
    """

    def __init__(
        self,
        descriptor,
        clients=None,
        shape=True,
        netem=None,
        queue=None,
        fail_mode="secure",
        datapath=None,
        stp=False,
        switch_opts=None,
        source_routing=False,
        **params,
    ):
        self.descriptor = load_descriptor(descriptor)
        self.hosts_spec = all_hosts(self.descriptor, clients)
        self.plan = port_plan(self.descriptor, self.hosts_spec)
        self.names = switch_names(self.descriptor)
        self.dpids = switch_dpids(self.descriptor)
        self.shape = _flag(shape)
        self.netem = netem_available() if netem is None else _flag(netem)
        self.queue = _queue(queue)
        self.dropped = []
        self.source_routing = bool(source_routing)
        self.switch_opts = {
            "cls": MpqoeSwitch,
            "protocols": "OpenFlow13",
            "failMode": str(fail_mode),
            "datapath": datapath or ovs_datapath(),
            "stp": _flag(stp),
        }
        self.switch_opts.update(switch_opts or {})
        self._check_names()
        super().__init__(**params)
        if self.dropped:
            print(
                f"*** WARNING: no netem on this kernel: delay/loss of {len(self.dropped)} "
                f"link(s) of {self.descriptor['name']} NOT applied (bandwidth only)",
                file=sys.stderr,
            )

    def interface_of(self, host, ip):
        """(index, descriptor switch) of host's interface with address ip."""
        spec = next(h for h in self.hosts_spec if h["name"] == host)
        k = next(i for i, f in enumerate(spec["interfaces"]) if f["ip"] == ip)
        return k, spec["interfaces"][k]["switch"]

    def _check_names(self):
        sw = set(self.names.values())
        for h in self.hosts_spec:
            name = h["name"]
            if name in sw:
                raise MpqoeError(f"host {name!r} clashes with switch {name}")
            if len(f"{name}-eth{len(h['interfaces']) - 1}") > _IFNAMSIZ:
                raise MpqoeError(f"host name {name!r} too long for Linux interface names")
        for name, ports in self.plan.items():
            if len(f"{self.names[name]}-eth{len(ports)}") > _IFNAMSIZ:
                raise MpqoeError(f"switch {name}: interface names would exceed {_IFNAMSIZ} bytes")

    def _link_opts(self, spec, what):
        """TCLink parameters for a link or interface dict (empty: plain Link)."""
        opts = {}
        cap = spec.get("capacityMbps")
        if self.shape and cap:
            opts["bw"] = float(cap)
        delay = float(spec.get("delayMs") or 0)
        loss = float(spec.get("lossPct") or 0)
        if delay > 0 or loss > 0:
            if self.netem:
                if delay > 0:
                    opts["delay"] = f"{delay:g}ms"
                if loss > 0:
                    opts["loss"] = loss
            else:
                self.dropped.append(what)
        if opts and self.queue is not None:
            opts["max_queue_size"] = self.queue
        if opts:
            opts["cls"] = MpqoeLink
        else:
            opts["cls"] = Link
        return opts

    def build(self):
        for name, sname in self.names.items():
            self.addSwitch(sname, dpid=f"{self.dpids[name]:016x}", **self.switch_opts)
        for idx, link in enumerate(self.descriptor["links"]):
            a, b = link["a"], link["b"]
            pa = next(p for p in self.plan[a] if p.kind == "link" and p.index == idx).port
            pb = next(
                p for p in self.plan[b] if p.kind == "link" and p.index == idx and p.peer_port == pa
            ).port
            opts = self._link_opts(link, f"{a}-{b}")
            self.addLink(self.names[a], self.names[b], port1=pa, port2=pb, **opts)
        for hidx, host in enumerate(self.hosts_spec):
            name = host["name"]
            intfs = [
                (f"{name}-eth{i}", itf["ip"], itf["mac"])
                for i, itf in enumerate(host["interfaces"])
            ]
            self.addHost(
                name,
                cls=MpqoeHost,
                ip=f"{intfs[0][1]}/{PREFIX_LEN}",
                mac=intfs[0][2],
                role=host.get("role", "client"),
                mpqoe_intfs=intfs,
                mpqoe_source_routing=self.source_routing,
            )
            for i, itf in enumerate(host["interfaces"]):
                sw = itf["switch"]
                port = next(
                    p.port
                    for p in self.plan[sw]
                    if p.kind == "host" and p.index == hidx and p.peer_port == i
                )
                opts = self._link_opts(itf, f"{name}-eth{i}")
                self.addLink(
                    name,
                    self.names[sw],
                    port1=i,
                    port2=port,
                    intfName1=intfs[i][0],
                    addr1=itf["mac"],
                    params1={"ip": f"{itf['ip']}/{PREFIX_LEN}"},
                    **opts,
                )


# ----------------------------------------------------------------------------------------------
# Checks and counters


def _run(args, timeout=10):
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise MpqoeError(f"{' '.join(args)}: no answer within {timeout} s") from None
    if r.returncode != 0:
        raise MpqoeError(f"{' '.join(args)}: {r.stderr.strip() or r.returncode}")
    return r.stdout


def _sw_name(switch):
    return switch if isinstance(switch, str) else switch.name


_SHOW_PORT = re.compile(r"^\s*(\d+)\(([^)]+)\):")
_SHOW_DPID = re.compile(r"dpid:([0-9a-fA-F]+)")


def ovs_ports(switch):
    """(dpid, {port number: interface name}) from `ovs-ofctl -O OpenFlow13 show`."""
    text = _run([*OFCTL, "show", _sw_name(switch)])
    m = _SHOW_DPID.search(text)
    ports = {int(p.group(1)): p.group(2) for p in map(_SHOW_PORT.match, text.splitlines()) if p}
    return (int(m.group(1), 16) if m else None), ports


def check_port_numbers(topo, net=None):
    """Problems (empty list when none) between the descriptor rule and the running switches.

    Checks each bridge's DPID and that port p is `s<dpid>-eth<p>`; with `net` also that the
    interface's peer is the descriptor's peer switch port or host interface (with its MAC).
    """
    problems = []
    for name, ports in topo.plan.items():
        sname = topo.names[name]
        try:
            dpid, actual = ovs_ports(sname)
        except (MpqoeError, OSError, subprocess.SubprocessError) as e:
            problems.append(f"{sname}: {e}")
            continue
        if dpid != topo.dpids[name]:
            problems.append(f"{sname} ({name}): dpid {dpid}, descriptor {topo.dpids[name]}")
        expected = {p.port: f"{sname}-eth{p.port}" for p in ports}
        if actual != expected:
            problems.append(f"{sname} ({name}): ports {actual}, expected {expected}")
        if net is None:
            continue
        node = net.get(sname)
        for p in ports:
            intf = node.intfs.get(p.port)
            if intf is None or intf.link is None:
                problems.append(f"{sname} port {p.port}: no link")
                continue
            other = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
            if p.kind == "link":
                want = f"{topo.names[p.peer]}-eth{p.peer_port}"
            else:
                want = f"{p.peer}-eth{p.peer_port}"
            if other.name != want:
                problems.append(f"{sname} port {p.port}: peer {other.name}, expected {want}")
            elif p.kind == "host":
                mac = topo.hosts_spec[p.index]["interfaces"][p.peer_port]["mac"].lower()
                got = (other.updateMAC() or "").lower()
                if got != mac:
                    problems.append(f"{want}: MAC {got}, descriptor {mac}")
    return problems


_FLOW_FLAGS = {
    "send_flow_rem",
    "check_overlap",
    "reset_counts",
    "no_packet_counts",
    "no_byte_counts",
}
_FLOW_META = {
    "cookie",
    "duration",
    "table",
    "n_packets",
    "n_bytes",
    "idle_timeout",
    "hard_timeout",
    "idle_age",
    "hard_age",
    "importance",
    "send_flow_rem",
    "reset_counts",
    "no_packet_counts",
    "no_byte_counts",
    "check_overlap",
    "out_port",
    "out_group",
}


def parse_flows(text):
    """Flow dicts from `ovs-ofctl dump-flows` text (see `flow_counters`)."""
    flows = []
    for line in text.splitlines():
        line = line.strip()
        if " actions=" not in line and not line.startswith("actions="):
            continue
        left, _, actions = line.partition("actions=")
        flow = {
            "cookie": 0,
            "table": 0,
            "priority": 32768,
            "n_packets": 0,
            "n_bytes": 0,
            "match": {},
            "actions": actions.strip(),
        }
        # Flags such as send_flow_rem stand before the match separated by a space only
        # ("idle_timeout=30, send_flow_rem priority=40000,tcp,..."), so split on spaces too.
        for token in left.replace(", ", ",").replace(" ", ",").strip().strip(",").split(","):
            token = token.strip()
            if not token:
                continue
            key, eq, value = token.partition("=")
            if key == "priority":
                flow["priority"] = int(value)
            elif key in _FLOW_FLAGS and not eq:
                flow.setdefault("flags", []).append(key)
            elif key in _FLOW_META:
                if key == "cookie":
                    flow["cookie"] = int(value, 16)
                elif key == "duration":
                    flow["duration"] = float(value.rstrip("s"))
                elif value.isdigit():
                    flow[key] = int(value)
                else:
                    flow[key] = value if eq else True
            else:
                flow["match"][key] = value if eq else True
        flows.append(flow)
    return flows


def flow_counters(switch):
    """The flows of a switch (node or bridge name), one dict each.

    Keys: cookie (int), table, priority (32768 when ovs-ofctl omits it), n_packets, n_bytes,
    duration (s), match ({field: value}, protocol shorthands like `tcp` map to True), actions
    (text), and any other flow attribute ovs-ofctl prints (idle_timeout, ...).
    """
    return parse_flows(_run([*OFCTL, "dump-flows", _sw_name(switch)]))


# Hand-written rules for networks without a controller: forward like a learning switch, with
# TCP (cookie 0x2) and ARP (0x3) counted on their own.
NORMAL_FLOWS = (
    "cookie=0x1,priority=0,actions=NORMAL",
    "cookie=0x2,priority=10,tcp,actions=NORMAL",
    "cookie=0x3,priority=10,arp,actions=NORMAL",
)


def add_flows(switch, flows):
    """`ovs-ofctl add-flow` of each rule text; MpqoeError naming the rule that was refused."""
    for flow in flows:
        _run([*OFCTL, "add-flow", _sw_name(switch), flow])


def add_normal_flows(switch):
    add_flows(switch, NORMAL_FLOWS)


# ----------------------------------------------------------------------------------------------
# MPTCP


def host_interfaces(host):
    """[(interface name, ip)] of a host built by DescriptorTopo, in descriptor order."""
    spec = host.params.get("mpqoe_intfs")
    if spec:
        return [(name, ip) for name, ip, _mac in spec]
    return [(i.name, i.IP()) for i in host.intfList() if i.name != "lo"]


def enable_mptcp(host, subflows=8, add_addr_accepted=8, endpoints=None):
    """Turn MPTCP on in a host and give its path manager the client's extra interfaces.

    Sets net.mptcp.enabled=1 (and syn_retrans_before_tcp_fallback=10 and
    blackhole_timeout=0 where they exist; exponential SYN backoff, tcp_syn_linear_timeouts=0,
    where the fallback after two SYN retransmissions has no sysctl),
    `ip mptcp limits set subflow N add_addr_accepted N` (8 is the kernel's maximum) and, for a
    client (role param) unless `endpoints` is given, one
    `ip mptcp endpoint add IP dev INTF subflow` per non-first interface. endpoints: [(intf,
    ip)] to use instead ([] for none). Returns `ip mptcp endpoint show` output.
    """
    host.cmd("sysctl -w net.mptcp.enabled=1")
    # Kernels from 6.14 on fall back to plain TCP after two unanswered MP_CAPABLE SYNs (meant
    # for middleboxes that drop MPTCP options). Here a SYN waits for the controller's rules,
    # which can take seconds on a loaded machine; nothing in these networks strips options.
    if os.path.exists("/proc/sys/net/mptcp/syn_retrans_before_tcp_fallback"):
        host.cmd("sysctl -w net.mptcp.syn_retrans_before_tcp_fallback=10")
    elif os.path.exists("/proc/sys/net/mptcp/blackhole_timeout"):
        # 6.12 and 6.13 fall back after two retransmissions, a number without a sysctl; with
        # the linear SYN timeouts these kernels default to (tcp_syn_linear_timeouts=4, since
        # 6.5: retransmissions 1 s apart) that is 3 s after the SYN. Exponential backoff, as
        # in the papers' 5.15 kernel, makes it 7 s (SYNs at 0, 1 and 3 s).
        host.cmd("sysctl -w net.ipv4.tcp_syn_linear_timeouts=0")
    # From 6.12 on, a connection whose MP_CAPABLE SYN went unanswered twice and then worked as
    # plain TCP turns active MPTCP off in the namespace for blackhole_timeout s (3600): one
    # slow rule installation would make every later connection of that host plain TCP.
    if os.path.exists("/proc/sys/net/mptcp/blackhole_timeout"):
        host.cmd("sysctl -w net.mptcp.blackhole_timeout=0")
    host.cmd(f"ip mptcp limits set subflow {subflows} add_addr_accepted {add_addr_accepted}")
    host.cmd("ip mptcp endpoint flush")
    if endpoints is None:
        client = host.params.get("role", "client") == "client"
        endpoints = host_interfaces(host)[1:] if client else []
    for intf, ip in endpoints:
        out = host.cmd(f"ip mptcp endpoint add {ip} dev {intf} subflow")
        if out.strip():
            raise MpqoeError(f"{host.name}: ip mptcp endpoint add {ip} dev {intf}: {out.strip()}")
    return host.cmd("ip mptcp endpoint show")


# ----------------------------------------------------------------------------------------------
# mn --custom entry points


def _mn_port_test(net):
    """`mn ... --test mpqoe_ports`: print the port-numbering check."""
    problems = check_port_numbers(net.topo, net)
    for p in problems:
        print("mpqoe_ports:", p)
    print("mpqoe_ports:", "OK" if not problems else f"{len(problems)} problem(s)")


topos = {"mpqoe": DescriptorTopo}
tests = {"mpqoe_ports": _mn_port_test}
