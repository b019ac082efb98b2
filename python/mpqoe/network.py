"""Open vSwitch and Mininet networks that clean up after themselves.

Cleanup removes only what a topology made: its bridges (`s<dpid>`), its switch-side veths
(`s<dpid>-eth<p>`) and the processes started in it. It never runs `mn -c`, which also deletes
/tmp/*.log and /tmp/*.out and kills every `mininet:` process on the machine. Mininet is imported
only when a network is built.
"""

import subprocess
import sys
import time

from mpqoe.proc import kill_all, sh

OVS_CTL = "/usr/share/openvswitch/scripts/ovs-ctl"
OVS_LOG = "/var/log/openvswitch/ovs-vswitchd.log"


def ensure_ovs():
    """Starts Open vSwitch unless it runs; 'running' or 'started'; RuntimeError if it fails."""
    if sh(["ovs-vsctl", "--timeout=3", "show"]).returncode == 0:
        return "running"
    r = sh([OVS_CTL, "start"], timeout=60)
    if sh(["ovs-vsctl", "--timeout=3", "show"]).returncode != 0:
        raise RuntimeError(f"Open vSwitch does not start: {r.stdout}{r.stderr}")
    return "started"


def parse_connected(vsctl_show):
    """{bridge: is its controller connected} from `ovs-vsctl show` text."""
    state, bridge = {}, None
    for line in vsctl_show.splitlines():
        s = line.strip()
        if s.startswith("Bridge "):
            bridge = s.split(None, 1)[1].strip('"')
            state.setdefault(bridge, False)
        elif s == "is_connected: true" and bridge:
            state[bridge] = True
    return state


def controller_connected():
    """parse_connected of the running Open vSwitch."""
    return parse_connected(sh(["ovs-vsctl", "--timeout=3", "show"]).stdout)


def _link_names():
    out = sh(["ip", "-o", "link", "show"]).stdout
    return [ln.split(": ")[1].split("@")[0] for ln in out.splitlines() if len(ln.split(": ")) > 1]


def leftovers(topo):
    """Bridges or root-namespace veths with this topology's names that already exist."""
    bridges = set(sh(["ovs-vsctl", "--timeout=3", "list-br"]).stdout.split())
    mine = set(topo.names.values())
    found = sorted(mine & bridges)
    owners = {n.rsplit("-eth", 1)[0] for n in _link_names() if "-eth" in n}
    found += [f"{s}-eth*" for s in sorted(mine & owners)]
    return found


def sweep(topo):
    """Removes what a topology's network may have left: its bridges and switch-side veths."""
    for s in topo.names.values():
        sh(["ovs-vsctl", "--timeout=3", "--if-exists", "del-br", s])
    mine = set(topo.names.values())
    for name in _link_names():
        if name.rsplit("-eth", 1)[0] in mine:
            sh(["ip", "link", "del", name])


def refuse_or_sweep(topo, force_clean):
    """Before building: RuntimeError when the topology's bridges or veths exist already
    (another Mininet?), unless force_clean, which deletes them."""
    left = leftovers(topo)
    if left and not force_clean:
        raise RuntimeError(
            f"already present: {', '.join(left)} (another Mininet running? "
            "stop it, or rerun with --force-clean to delete them)"
        )
    if left:
        sweep(topo)


def stop_net(net):
    """net.stop(), first interrupting any host shell still inside a command."""
    for h in net.hosts:
        if h.shell and h.waiting:
            h.sendInt()
            deadline = time.time() + 2
            while h.waiting and time.time() < deadline:
                h.monitor(timeoutms=200)
            h.waiting = False
    net.stop()


def teardown(net, topo, procs=()):
    """Kills procs, stops net (if any) and sweeps topo (if any), going on after errors."""
    kill_all(procs)
    if net is not None:
        try:
            stop_net(net)
        except Exception as e:  # noqa: BLE001 - teardown must go on
            print(f"  (net.stop: {e!r}; sweeping)", file=sys.stderr)
    if topo is not None:
        sweep(topo)


def tcpdump(host, intf, out, port, snaplen=128, count=None):
    """tcpdump of TCP port `port` on one interface of a Mininet host into the pcap `out`: the
    first `snaplen` bytes of each frame (headers and options), written frame by frame (-U), so
    that stopping it loses at most the frame being written; at most `count` frames if given."""
    limit = ["-c", str(count)] if count else []
    cmd = ["tcpdump", "-n", "-i", intf, "-s", str(snaplen), *limit, "-U", "-w", out]
    return host.popen([*cmd, "tcp", "port", str(port)], stderr=subprocess.DEVNULL)


def start_net(topo, controller=None):
    """A started Mininet of topo, with a RemoteController at controller=(ip, port) if given."""
    from mininet.net import Mininet
    from mininet.node import RemoteController

    net = Mininet(topo=topo, controller=None, build=False, autoSetMacs=False)
    if controller:
        ip, port = controller
        net.addController("c0", controller=RemoteController, ip=ip, port=port)
    net.build()
    net.start()
    return net


class Network:
    """A Mininet network of a DescriptorTopo for a `with` block, torn down and swept on exit;
    processes appended to `procs` are killed first."""

    def __init__(self, topo, force_clean, controller=None):
        self.topo, self.force_clean, self.controller = topo, force_clean, controller
        self.net, self.procs = None, []

    def __enter__(self):
        refuse_or_sweep(self.topo, self.force_clean)
        self.net = start_net(self.topo, self.controller)
        return self.net

    def __exit__(self, *exc):
        teardown(self.net, self.topo, self.procs)
        return False


def set_core_mtu(topo, mtu):
    """MTU of every switch-to-switch veth end (a label stack makes frames longer); returns the
    devices that refused, with the reason."""
    bad = []
    for name, ports in topo.plan.items():
        for p in ports:
            if p.kind == "link":
                dev = f"{topo.names[name]}-eth{p.port}"
                r = sh(["ip", "link", "set", "dev", dev, "mtu", str(mtu)])
                if r.returncode:
                    bad.append(f"{dev}: {r.stderr.strip()}")
    return bad


def ping_from_each(host, intfs, ip, wait_s=2):
    """Pings ip once from each of a Mininet host's interfaces intfs (names); those that got no
    answer."""
    bad = []
    for intf in intfs:
        out = host.cmd(f"ping -c 1 -W {wait_s} -I {intf} {ip}")
        if " 0% packet loss" not in out:
            bad.append(intf)
    return bad


def bridges_in_order(topo):
    """The topology's bridge names sorted by DPID (s1, s2, ..., s10)."""
    return sorted(topo.names.values(), key=lambda b: int(b[1:]))


def wait_bridges(bridges, service, timeout, problem=None, interval=0.3):
    """Waits until every bridge's controller connection is up and problem(bridge) (a text, or
    None when the bridge is ready; e.g. a rule the controller must have installed) is None.
    Returns the seconds taken; RuntimeError when service (proc.Service) exits or time is up."""
    t0 = time.monotonic()
    missing = list(bridges)
    while time.monotonic() - t0 < timeout:
        service.require_alive()
        conn = controller_connected()
        missing = []
        for b in bridges:
            why = "not connected" if not conn.get(b) else (problem(b) if problem else None)
            if why:
                missing.append(f"{b} ({why})")
        if not missing:
            return time.monotonic() - t0
        time.sleep(interval)
    raise RuntimeError(f"switches not ready after {timeout} s: {', '.join(missing)}")
