"""Process helpers: commands with a timeout, a service process logged to a file, free ports,
the last JSON line of a program's output, log files read from an offset."""

import json
import socket
import subprocess
import time


def sh(args, timeout=15):
    """subprocess.run(args) capturing text output; raises subprocess.TimeoutExpired."""
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def free_port():
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n):
    """n distinct free ports, ascending."""
    ports = set()
    while len(ports) < n:
        ports.add(free_port())
    return sorted(ports)


def last_json(text):
    """The last line of text that parses as JSON, or {} when none does."""
    for line in reversed((text or "").strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return {}


def loss_line(ping_out):
    """ping's "... packet loss" line, or the tail of its output."""
    for line in ping_out.splitlines():
        if "packet loss" in line:
            return line.strip()
    return ping_out.strip()[-200:]


def log_offset(path):
    """The size of a log file now (0 when missing): read_since(path, offset) later."""
    try:
        with open(path, "rb") as f:
            return f.seek(0, 2)
    except OSError:
        return 0


def read_since(path, offset=0):
    """The text of a file from a byte offset on ("" when unreadable)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            f.seek(offset)
            return f.read()
    except OSError:
        return ""


def print_tail(path, lines, title="log"):
    """Prints the last `lines` lines of a log file, indented."""
    text = read_since(path).splitlines()
    print(f"---- {title} {path} (last {min(lines, len(text))} of {len(text)} lines)")
    for ln in text[-lines:]:
        print("  | " + ln)
    print("----")


class Service:
    """A long-running command in its own session with its output in a log file; stop() sends
    SIGTERM, then SIGKILL after `grace` seconds."""

    def __init__(self, cmd, log_path, name="process", grace=5):
        self.cmd, self.log_path, self.name, self.grace = cmd, log_path, name, grace
        self.proc = self.log = None

    def start(self):
        self.log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            self.cmd, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def require_alive(self):
        """RuntimeError when the process has exited."""
        if not self.alive():
            code = None if self.proc is None else self.proc.returncode
            raise RuntimeError(f"{self.name} exited with code {code}")

    def stop(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=self.grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if self.log is not None:
            self.log.close()
            self.log = None

    def text(self):
        return read_since(self.log_path)


def kill_all(procs):
    """Kills the Popen objects that still run and reaps them."""
    for p in procs:
        if p is not None and p.poll() is None:
            p.kill()
            p.wait(timeout=5)


def machine_load():
    """This machine's load averages, its /proc/stat cpu line (jiffies) and the time."""
    with open("/proc/loadavg") as f:
        load = f.read().split()
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    return {"loadavg": [float(x) for x in load[:3]], "cpu": cpu, "time": time.time()}
