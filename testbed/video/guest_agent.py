#!/usr/bin/python3
"""The network side of the video experiments, driven by the host over one TCP connection.

    /usr/bin/python3 testbed/video/guest_agent.py --descriptor FILE --controller IP:PORT
        --content DIR [--agent-port 7000] [--client-port 7100] [--server-port 8000]
        [--queue PACKETS] [--timeout S]

Runs where the network is emulated: in the testbed guest (testbed/run, which forwards the
host's ports to the agent and to the forwarders) or, with `video_run.py --local`, directly on a
machine whose kernel has netem. As root with Debian's python3 (Mininet). It:

1. loads netem and Open vSwitch (the guest's kernel modules; on a kernel without netem it
   stops with exit 2: the experiments' delays are never dropped silently);
2. builds the descriptor's network (mpqoe.topo.DescriptorTopo: htb bandwidth
   and netem delay per link, OVS kernel datapath in fail mode secure) with the host's
   controller at --controller (from the guest, the host is 10.0.2.2);
3. turns MPTCP on in every host (a `subflow` endpoint per extra client interface);
4. starts the harness's MPTCP HTTP server (dashjs-harness/server/mptcp_server.py) in every
   server host, serving --content, the player page and dash.js;
5. per client i, a listening socket on port --client-port + i of this (root) namespace, handed
   to forwarder.py running inside client i's host: the browser's connections become MPTCP
   connections from the client's interfaces;
6. answers JSON-line commands on --agent-port (one object per line each way, see COMMANDS),
   until `quit` or --timeout.
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

from mpqoe import checks, kernel, network
from mpqoe.proc import kill_all, machine_load

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


PY = "/usr/bin/python3"
HARNESS = os.path.join(REPO, "dashjs-harness")
SERVER = os.path.join(HARNESS, "server", "mptcp_server.py")
FORWARDER = os.path.join(HERE, "forwarder.py")
CAPTURE_DIR = "/tmp/mpqoe-video-capture"


class Usage(Exception):
    """Bad arguments or a missing kernel feature: exit 2."""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--descriptor", required=True, help="topology descriptor with its clients")
    p.add_argument("--controller", required=True, metavar="IP:PORT")
    p.add_argument("--content", required=True, help="directory served as /content")
    p.add_argument("--agent-port", type=int, default=7000)
    p.add_argument("--client-port", type=int, default=7100, help="client i listens on this + i")
    p.add_argument("--server-port", type=int, default=8000)
    p.add_argument("--bind", default="0.0.0.0", help="address of the agent's and clients' ports")
    p.add_argument("--queue", type=int, default=None, help="netem queue limit (packets)")
    p.add_argument("--timeout", type=int, default=7200, help="stop after this many seconds")
    a = p.parse_args(argv)
    m = re.fullmatch(r"([\d.]+):(\d{1,5})", a.controller)
    if not m:
        raise Usage(f"--controller wants IP:PORT, got {a.controller!r}")
    a.controller_addr = (m.group(1), int(m.group(2)))
    if not os.path.isfile(a.descriptor):
        raise Usage(f"--descriptor {a.descriptor}: no such file")
    if not os.path.isdir(a.content):
        raise Usage(f"--content {a.content}: no such directory")
    for name in ("agent_port", "client_port", "server_port"):
        if not 1 <= getattr(a, name) <= 65000:
            raise Usage(f"--{name.replace('_', '-')}: want 1..65000")
    return a


class Agent:
    """The network, the server, the forwarders and the command loop."""

    def __init__(self, args, mq):
        self.args, self.mq = args, mq
        self.topo = self.net = None
        self.servers, self.background = [], []
        self.listeners, self.forwarders, self.fwd_logs = {}, {}, {}
        self.server_log = "/tmp/mpqoe-video-server.log"
        self.built = {}
        self.config = {"scheduler": "default", "rcvbuf": 0, "tcp": False}
        self.tcpdumps = []  # the running capture's processes
        self.pcaps = []  # the last capture's files, until stop moves them

    # -- set-up

    def build(self):
        t0 = time.monotonic()
        self.topo = self.mq.DescriptorTopo(
            self.args.descriptor, netem=True, fail_mode="secure", queue=self.args.queue
        )
        network.refuse_or_sweep(self.topo, force_clean=True)
        self.net = network.start_net(self.topo, controller=self.args.controller_addr)
        # A fresh controller starts every run: switches retry within 1 s (OVS backs off to 8).
        for sw in self.net.switches:
            sw.vsctl("set", "controller", sw.name, "max_backoff=1000")
        # Room for segment routing's label stacks (QoMRA) on switch-to-switch links.
        bad = network.set_core_mtu(self.topo, 1600)
        if bad:
            raise RuntimeError("core MTU: " + "; ".join(bad))
        for h in self.net.hosts:
            self.mq.enable_mptcp(h)
            h.cmd("sysctl -qw net.ipv4.tcp_no_metrics_save=1")
        self.built["network_s"] = round(time.monotonic() - t0, 1)
        self.default_rmem = " ".join(self.clients()[0].cmd("sysctl -n net.ipv4.tcp_rmem").split())
        self.start_server()
        self.open_listeners()
        self.configure({})
        self.built["total_s"] = round(time.monotonic() - t0, 1)

    def server_hosts(self):
        """Server hosts in descriptor order."""
        order = [h["name"] for h in self.topo.hosts_spec if h.get("role") == "server"]
        return [self.net.get(n) for n in order]

    def server_host(self):
        return self.server_hosts()[0]

    def clients(self):
        """Client hosts in descriptor order."""
        order = [h["name"] for h in self.topo.hosts_spec if h.get("role", "client") == "client"]
        return [self.net.get(n) for n in order]

    def server_ips(self):
        return [self.mq.host_interfaces(h)[0][1] for h in self.server_hosts()]

    def start_server(self):
        # --players: every installed player profile's dash.js, at /dashjs/<profile>/
        cmd = [
            PY, SERVER, "--mount", f"/content={self.args.content}",
            "--mount", f"/player={os.path.join(HARNESS, 'player')}", "--players",
            "--bind", "0.0.0.0", "--port", str(self.args.server_port), "--log", self.server_log,
        ]  # fmt: skip
        # Every server host serves the same content; client i uses server i mod k (the
        # scenario generator's rule), all logging into one file.
        self.servers = []
        for h in self.server_hosts():
            p = h.popen(cmd, stdout=subprocess.PIPE, text=True)
            self.servers.append(p)
            line = p.stdout.readline()
            if not line.startswith("listening"):
                raise RuntimeError(f"video server in {h.name} did not start: {line.strip()!r}")

    def open_listeners(self):
        for i, h in enumerate(self.clients()):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((self.args.bind, self.args.client_port + i))
            s.listen(64)
            self.listeners[h.name] = s

    def start_forwarders(self):
        self.stop_forwarders()
        ips = self.server_ips()
        for i, h in enumerate(self.clients()):
            server = f"{ips[i % len(ips)]}:{self.args.server_port}"
            fd = self.listeners[h.name].fileno()
            log = f"/tmp/mpqoe-video-fwd-{h.name}.log"
            cmd = [PY, FORWARDER, "--listen-fd", str(fd), "--server", server]
            if self.config["tcp"]:
                cmd.append("--tcp")
            out = open(log, "a", encoding="utf-8")  # noqa: SIM115 - closed with the process
            self.forwarders[h.name] = h.popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, pass_fds=[fd]
            )
            self.fwd_logs[h.name] = (log, out)

    def stop_forwarders(self):
        kill_all(self.forwarders.values())
        for _log, out in self.fwd_logs.values():
            out.close()
        self.forwarders = {}

    def configure(self, cmd):
        """Scheduler (the server's net.mptcp.scheduler; a module is loaded when needed),
        the forwarders' receive buffer and transport; restarts the forwarders."""
        cfg = dict(self.config)
        for key in ("scheduler", "rcvbuf", "tcp"):
            if key in cmd:
                cfg[key] = cmd[key]
        if not re.fullmatch(r"[a-z_]{1,16}", str(cfg["scheduler"])):
            raise ValueError(f"scheduler: bad name {cfg['scheduler']!r}")
        if not isinstance(cfg["rcvbuf"], int) or not 0 <= cfg["rcvbuf"] <= 64 << 20:
            raise ValueError("rcvbuf: want bytes 0..67108864")
        if cfg["scheduler"] not in kernel.BUILTIN_SCHEDULERS:
            kernel.load_testbed_modules([cfg["scheduler"]])
        # The client's receive buffer (the GA paper's section IV.B.2): the autotuning cap of
        # its namespace, net.ipv4.tcp_rmem's maximum, which MPTCP's connection-level buffer
        # obeys too; 0 restores the kernel's default.
        rmem = (
            self.default_rmem
            if not cfg["rcvbuf"]
            else f"4096 {min(131072, cfg['rcvbuf'])} {cfg['rcvbuf']}"
        )
        for h in self.clients():
            h.cmd(f"sysctl -qw net.ipv4.tcp_rmem='{rmem}'")
            got = " ".join(h.cmd("sysctl -n net.ipv4.tcp_rmem").split())
            if got != " ".join(rmem.split()):
                raise RuntimeError(f"{h.name}: net.ipv4.tcp_rmem is {got!r}, wanted {rmem!r}")
        for srv in self.server_hosts():
            srv.cmd(f"sysctl -qw net.mptcp.scheduler={cfg['scheduler']}")
            got = srv.cmd("sysctl -n net.mptcp.scheduler").strip()
            if got != cfg["scheduler"]:
                raise RuntimeError(
                    f"{srv.name}: net.mptcp.scheduler is {got!r}, wanted {cfg['scheduler']!r}"
                )
        self.config = cfg
        self.start_forwarders()
        return {"config": cfg}

    # -- commands

    def cmd_ready(self, _cmd):
        return {
            "kernel": os.uname().release,
            "built": self.built,
            "server_ips": self.server_ips(),
            "server_port": self.args.server_port,
            "clients": [
                {
                    "name": h.name,
                    "port": self.args.client_port + i,
                    "ips": [ip for _n, ip in self.mq.host_interfaces(h)],
                }
                for i, h in enumerate(self.clients())
            ],  # fmt: skip
            "config": self.config,
        }

    def cmd_connected(self, _cmd):
        return {"bridges": network.controller_connected()}

    def cmd_flows(self, _cmd):
        """Every switch's rules with their counters, by the descriptor's switch names."""
        name = {bridge: sw for sw, bridge in self.topo.names.items()}
        return {"flows": {name[s.name]: self.mq.flow_counters(s) for s in self.net.switches}}

    def cmd_plan(self, _cmd):
        """Every switch's ports as the network was built: [port, "link" or "host", peer]."""
        return {
            "plan": {
                sw: [[p.port, p.kind, p.peer] for p in ports]
                for sw, ports in self.topo.plan.items()
            }
        }

    def cmd_log(self, cmd):
        """Lines of the server's log (or client's forwarder log) from byte offset `since`."""
        which = cmd.get("which", "server")
        path = self.server_log if which == "server" else self.fwd_logs[which][0]
        since = int(cmd.get("since", 0))
        with open(path, "rb") as f:
            f.seek(since)
            data = f.read()
        return {"lines": data.decode("utf-8", "replace").splitlines(), "next": since + len(data)}

    def cmd_load(self, _cmd):
        return machine_load()

    def cmd_ping(self, _cmd):
        """One ping to each client's server from every client interface; the failures."""
        ips, failed = self.server_ips(), []
        for i, h in enumerate(self.clients()):
            dst = ips[i % len(ips)]
            for intf, ip in self.mq.host_interfaces(h):
                out = h.cmd(f"ping -c 1 -W 2 -I {intf} {dst}")
                if " 0% packet loss" not in out:
                    failed.append(f"{h.name} {ip} -> {dst}")
        return {"failed": failed}

    def cmd_sockets(self, cmd):
        """TCP sockets of every host that are neither listening nor in TIME_WAIT (a connection
        still open or closing), per host with any; with kill, `ss -K` closes them first."""
        if cmd.get("kill"):
            for h in self.net.hosts:
                h.cmd(f"ss -K -tn {OPEN_STATES}")
        counts = {}
        for h in self.net.hosts:
            n = len([x for x in h.cmd(f"ss -Htn {OPEN_STATES}").splitlines() if x.strip()])
            if n:
                counts[h.name] = n
        return {"open": counts}

    def cmd_mptcp(self, _cmd):
        return {h.name: kernel.netstat_counters(h) for h in self.net.hosts}

    def cmd_kernel(self, _cmd):
        """The guest kernel's taint mask and the log lines that report trouble
        (kernel.read_health): the host compares a run's end with its start."""
        return kernel.read_health()

    def cmd_configure(self, cmd):
        return self.configure(cmd)

    def cmd_background(self, cmd):
        """start: one iperf3 TCP flow from host `from` to host `to` (iperf3 server in `from`,
        the client in `to` in reverse mode), until stop or the end; stop: ends it."""
        self.stop_background()
        if cmd.get("action") == "stop":
            return {"background": None}
        src, dst = self.net.get(cmd["from"]), self.net.get(cmd["to"])
        ip = self.mq.host_interfaces(src)[0][1]
        self.background = [src.popen(["iperf3", "-s", "-1", "-p", "5201"])]
        time.sleep(0.5)
        log = open("/tmp/mpqoe-video-iperf.log", "w", encoding="utf-8")  # noqa: SIM115
        self.background.append(
            dst.popen(
                ["iperf3", "-c", ip, "-p", "5201", "-R", "-t", "3600", "-i", "5"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        )
        return {"background": {"from": src.name, "to": dst.name, "server_ip": ip}}

    def cmd_capture(self, cmd):
        """start: tcpdump of the video port's headers (128 bytes a frame) on every interface
        of the servers and on each client's first interface (where its MP_CAPABLE handshake
        leaves), into CAPTURE_DIR; stop: ends them and moves the pcaps into `dir` (absolute: a
        directory the host reads, under /results in the guest). Returns the files moved."""
        self.stop_captures()
        if cmd.get("action") == "stop":
            dest = str(cmd.get("dir", ""))
            if not os.path.isabs(dest):
                raise ValueError(f"capture: want an absolute dir, got {dest!r}")
            os.makedirs(dest, exist_ok=True)
            moved = {}
            for path in self.pcaps:
                if os.path.exists(path):
                    moved[os.path.basename(path)] = os.path.getsize(path)
                    shutil.move(path, os.path.join(dest, os.path.basename(path)))
            self.pcaps = []
            return {"capture": moved}
        shutil.rmtree(CAPTURE_DIR, ignore_errors=True)
        os.makedirs(CAPTURE_DIR)
        where = [(h, intf) for h in self.server_hosts() for intf, _ip in self.mq.host_interfaces(h)]
        where += [(h, self.mq.host_interfaces(h)[0][0]) for h in self.clients()]
        self.pcaps = [os.path.join(CAPTURE_DIR, f"{intf}.pcap") for _h, intf in where]
        for (h, intf), out in zip(where, self.pcaps, strict=True):
            self.tcpdumps.append(network.tcpdump(h, intf, out, self.args.server_port))
        time.sleep(1)  # tcpdump's socket opens before the players' first SYN
        return {"capture": [intf for _h, intf in where]}

    def stop_captures(self):
        for p in self.tcpdumps:
            if p.poll() is None:
                p.terminate()  # tcpdump writes out what it holds
                p.wait(timeout=10)
        self.tcpdumps = []

    def stop_background(self):
        kill_all(getattr(self, "background", []))
        self.background = []

    def teardown(self):
        self.stop_captures()
        self.stop_background()
        self.stop_forwarders()
        for s in self.listeners.values():
            s.close()
        network.teardown(self.net, self.topo, getattr(self, "servers", []))


# ss state filter: a TCP connection that is open or closing (TIME_WAIT excluded: a new SYN
# for the same ports is accepted by a socket in TIME_WAIT).
OPEN_STATES = " ".join(
    f"state {x}"
    for x in (
        "syn-sent", "syn-recv", "established", "fin-wait-1", "fin-wait-2", "close-wait",
        "last-ack", "closing",
    )
)  # fmt: skip

COMMANDS = (
    "ready",
    "connected",
    "flows",
    "plan",
    "log",
    "load",
    "mptcp",
    "kernel",
    "configure",
    "background",
    "capture",
    "ping",
    "sockets",
    "quit",
)


def serve(agent, port, bind):
    """The command loop: one host connection at a time, until `quit`."""
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind((bind, port))
    lsock.listen(4)
    print(f"agent: listening on {bind}:{port}", flush=True)
    while True:
        conn, _ = lsock.accept()
        with conn, conn.makefile("rwb") as f:
            for raw in f:
                try:
                    cmd = json.loads(raw)
                    name = cmd.get("cmd")
                    if name not in COMMANDS:
                        raise ValueError(f"unknown command {name!r} (one of {', '.join(COMMANDS)})")
                    if name == "quit":
                        f.write(b'{"ok": true}\n')
                        f.flush()
                        return
                    reply = {"ok": True, **getattr(agent, f"cmd_{name}")(cmd)}
                except Exception as e:  # a failed command must not end the agent
                    # (an ovs-ofctl that timed out in a loaded guest once ended a whole batch)
                    reply = {"ok": False, "error": f"{type(e).__name__}: {e}"}
                f.write(json.dumps(reply).encode() + b"\n")
                f.flush()


def main(argv):
    try:
        args = parse_args(argv)
        if os.geteuid() != 0:
            raise Usage("run as root (Mininet)")
        try:  # the guest's modules; a kernel without module loading has what it has
            kernel.load_testbed_modules()
        except RuntimeError as e:
            print(f"agent: {e}", file=sys.stderr)
        from mininet.log import setLogLevel
        from mpqoe import topo as mq

        if not mq.netem_available():
            raise Usage("this kernel has no netem: the links' delays cannot be applied (run in "
                        "the testbed guest)")  # fmt: skip
    except Usage as e:
        print(f"guest_agent: {e}", file=sys.stderr)
        return 2
    setLogLevel("warning")
    network.ensure_ovs()
    agent = Agent(args, mq)
    checks.deadline(args.timeout)
    try:
        agent.build()
        serve(agent, args.agent_port, args.bind)
    except (checks.Timeout, KeyboardInterrupt) as e:
        print(f"agent: stopping: {e}", file=sys.stderr)
        return 1
    finally:
        with checks.NoAlarm():
            agent.teardown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
