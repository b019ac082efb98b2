"""What the probe's server and client share: errors, sockets, addresses."""

import signal
import socket

from mpqoe import sockopt


class UsageError(Exception):
    """Bad input or a missing kernel feature: exit 2, nothing written."""


class Interrupted(Exception):
    pass


def on_signal(signum, frame):
    raise Interrupted(f"interrupted by signal {signal.Signals(signum).name}")


def make_socket(family, use_tcp):
    proto = socket.IPPROTO_TCP if use_tcp else sockopt.IPPROTO_MPTCP
    try:
        return socket.socket(family, socket.SOCK_STREAM, proto)
    except OSError as e:
        if use_tcp:
            raise
        raise UsageError(
            f"cannot create an MPTCP socket ({e.strerror}): kernel without MPTCP or "
            "net.mptcp.enabled=0 (use --tcp for plain TCP)"
        ) from None


def is_mptcp(sock):
    """True if the connection runs MPTCP (not a TCP fallback)."""
    try:
        info, _ = sockopt.mptcp_full_info(sock.fileno())
    except OSError:
        return False
    return not sockopt.is_fallback(info)


def family_of(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def sock_addr(sa):
    host, port = sa[0], sa[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def parse_hostport(text):
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--connect wants HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)
