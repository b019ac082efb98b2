"""Bytes carried by every MPTCP connection of this network namespace, from the MPTCP sock_diag.

The path manager daemon does not own the applications' sockets, so it cannot call
getsockopt(MPTCP_INFO) on them. The kernel's mptcp_diag (the interface of `ss -M`) answers an
inet_diag dump for protocol IPPROTO_MPTCP (passed in the INET_DIAG_REQ_PROTOCOL attribute,
since the request's protocol field is one byte) with each connection's `struct mptcp_info` in
INET_DIAG_INFO: its token, and since Linux 6.0 bytes_received / bytes_acked at the MPTCP level
(data-sequence bytes, each counted once whatever subflow carried it). Checked on a 6.18 kernel.
Pure decoding (`decode_dump`) is separate from the socket, for the unit tests.
"""

import socket
import struct

from mpqoe import sockopt
from mpqoe.pcdc import mptcp_genl as genl

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_DUMP = 0x300
INET_DIAG_INFO = 2
INET_DIAG_REQ_PROTOCOL = 3
TCP_LISTEN = 10
_REQ = struct.Struct("=BBBBI48s")  # struct inet_diag_req_v2
_MSG_SIZE = 72  # struct inet_diag_msg


def request(family, seq):
    """A dump request for every non-listening MPTCP socket of one address family."""
    states = 0xFFF & ~(1 << TCP_LISTEN)
    req = _REQ.pack(family, socket.IPPROTO_TCP, 1 << (INET_DIAG_INFO - 1), 0, states, b"\0" * 48)
    attr = genl.nla(INET_DIAG_REQ_PROTOCOL, struct.pack("=I", sockopt.IPPROTO_MPTCP))
    body = req + attr
    return (
        struct.pack("=IHHII", 16 + len(body), SOCK_DIAG_BY_FAMILY, 0x1 | NLM_F_DUMP, seq, 0) + body
    )


def decode_dump(messages):
    """({token: {bytes_received, bytes_acked, ...}}, done) of a list of split netlink messages
    (genl.split_messages). MalformedMessage for a bad one."""
    out = {}
    for mtype, flags, _seq, payload in messages:
        if mtype == genl.NLMSG_DONE:
            return out, True
        if mtype == genl.NLMSG_ERROR:
            err, text = genl.parse_error(payload, flags)
            raise genl.NetlinkError(err, text or "mptcp diag")
        if mtype != SOCK_DIAG_BY_FAMILY:
            continue
        if len(payload) < _MSG_SIZE:
            raise genl.MalformedMessage("truncated inet_diag_msg")
        for atype, _n, value in genl.parse_attrs(payload[_MSG_SIZE:]):
            if atype == INET_DIAG_INFO:
                info = sockopt.decode_fields(value, 0, len(value), sockopt.MPTCP_INFO_FIELDS)
                if "token" in info:
                    out[info["token"]] = info
    return out, False


def connections(timeout=2.0):
    """{token: mptcp_info dict} of the MPTCP connections of this namespace (IPv4 and IPv6);
    OSError when the diag interface is missing."""
    out = {}
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG) as s:
        s.settimeout(timeout)
        for seq, family in enumerate((socket.AF_INET, socket.AF_INET6), start=1):
            s.send(request(family, seq))
            done = False
            while not done:
                got, done = decode_dump(genl.split_messages(s.recv(1 << 16)))
                out.update(got)
    return out


def carried(info):
    """Bytes a connection carried: data acknowledged by the peer plus data received, both at
    the MPTCP level (so whichever side the daemon runs on, a download and an upload count)."""
    return info.get("bytes_acked", 0) + info.get("bytes_received", 0)
