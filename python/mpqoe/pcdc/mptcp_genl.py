"""A small generic-netlink client for the upstream MPTCP path manager (family "mptcp_pm").

Stdlib sockets only. Constants are those of the kernel's uapi headers (`linux/mptcp.h` up to
6.1, `linux/mptcp_pm.h` from 6.6 on, generated from Documentation/netlink/specs/mptcp_pm.yaml;
the numbers did not change between them). What the path manager daemon needs:

- `MptcpPm.subflow_create(token, local, remote)`: MPTCP_PM_CMD_SUBFLOW_CREATE (userspace PM only)
- `MptcpPm.subflow_destroy(token, local, remote)`: MPTCP_PM_CMD_SUBFLOW_DESTROY
- `EventSocket`: the "mptcp_pm_events" multicast group, decoded into `Event`s.

Parsing is strict: a truncated header or attribute, an attribute of the wrong size, a length
that runs past the message, raise `MalformedMessage` (a ValueError) and nothing is applied. The
encoders and decoders are pure functions over bytes, tested by tests/test_genl.py.
"""

import errno
import os
import socket
import struct
from dataclasses import dataclass

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11

NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3FFF

GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2

MPTCP_PM_NAME = "mptcp_pm"
MPTCP_PM_EV_GRP_NAME = "mptcp_pm_events"
MPTCP_PM_VER = 1

# commands
MPTCP_PM_CMD_SUBFLOW_CREATE = 10
MPTCP_PM_CMD_SUBFLOW_DESTROY = 11
# command attributes
MPTCP_PM_ATTR_ADDR = 1
MPTCP_PM_ATTR_TOKEN = 4
MPTCP_PM_ATTR_ADDR_REMOTE = 6
# nested address attributes
MPTCP_PM_ADDR_ATTR_FAMILY = 1
MPTCP_PM_ADDR_ATTR_ID = 2
MPTCP_PM_ADDR_ATTR_ADDR4 = 3
MPTCP_PM_ADDR_ATTR_ADDR6 = 4
MPTCP_PM_ADDR_ATTR_PORT = 5
MPTCP_PM_ADDR_ATTR_IF_IDX = 7

# events (genl command of a multicast message)
EVENT_NAMES = {
    1: "created",
    2: "established",
    3: "closed",
    6: "announced",
    7: "removed",
    10: "sub_established",
    11: "sub_closed",
    13: "sub_priority",
    15: "listener_created",
    16: "listener_closed",
}
# event attributes: (name, struct format or decoder)
_IP4, _IP6 = "ip4", "ip6"
EVENT_ATTRS = {
    1: ("token", "=I"),
    2: ("family", "=H"),
    3: ("loc_id", "=B"),
    4: ("rem_id", "=B"),
    5: ("saddr", _IP4),
    6: ("saddr", _IP6),
    7: ("daddr", _IP4),
    8: ("daddr", _IP6),
    9: ("sport", "!H"),
    10: ("dport", "!H"),
    11: ("backup", "=B"),
    12: ("error", "=B"),
    13: ("flags", "=H"),
    14: ("timeout", "=I"),
    15: ("if_idx", "=i"),
    16: ("reset_reason", "=I"),
    17: ("reset_flags", "=I"),
    18: ("server_side", "=B"),
}

_NLMSGHDR = struct.Struct("=IHHII")
_GENLHDR = struct.Struct("=BBH")
_NLA = struct.Struct("=HH")


class MalformedMessage(ValueError):
    """A netlink message that does not parse; it is dropped whole."""


class NetlinkError(OSError):
    """The kernel refused a request: errno and, when it gave one, its extended-ack message."""

    def __init__(self, err, text=""):
        msg = os.strerror(err) + (f" ({text})" if text else "")
        super().__init__(err, msg)
        self.text = text


class FamilyMissing(Exception):
    """No generic netlink family of that name (kernel without MPTCP)."""


def _align(n):
    return (n + 3) & ~3


# ---------------------------------------------------------------------------------------------
# Encoding


def nla(attr_type, payload):
    """One attribute: header, payload, padding to 4 bytes."""
    return (
        _NLA.pack(_NLA.size + len(payload), attr_type)
        + payload
        + b"\0" * (_align(len(payload)) - len(payload))
    )


def nla_nested(attr_type, attrs):
    return nla(attr_type | NLA_F_NESTED, b"".join(attrs))


def genl_message(family, cmd, attrs, seq, flags=NLM_F_REQUEST | NLM_F_ACK, version=MPTCP_PM_VER):
    payload = _GENLHDR.pack(cmd, version, 0) + b"".join(attrs)
    return _NLMSGHDR.pack(_NLMSGHDR.size + len(payload), family, flags, seq, 0) + payload


def addr_attrs(ip, port=0, addr_id=0, if_idx=0):
    """The nested attributes of an MPTCP endpoint address (IPv4 or IPv6 text)."""
    if ":" in ip:
        out = [
            nla(MPTCP_PM_ADDR_ATTR_FAMILY, struct.pack("=H", socket.AF_INET6)),
            nla(MPTCP_PM_ADDR_ATTR_ADDR6, socket.inet_pton(socket.AF_INET6, ip)),
        ]
    else:
        out = [
            nla(MPTCP_PM_ADDR_ATTR_FAMILY, struct.pack("=H", socket.AF_INET)),
            nla(MPTCP_PM_ADDR_ATTR_ADDR4, socket.inet_pton(socket.AF_INET, ip)),
        ]
    if addr_id:
        out.append(nla(MPTCP_PM_ADDR_ATTR_ID, struct.pack("=B", addr_id)))
    if port:
        out.append(nla(MPTCP_PM_ADDR_ATTR_PORT, struct.pack("=H", port)))
    if if_idx:
        out.append(nla(MPTCP_PM_ADDR_ATTR_IF_IDX, struct.pack("=i", if_idx)))
    return out


def subflow_attrs(token, local, remote):
    """Attributes of SUBFLOW_CREATE / SUBFLOW_DESTROY. local: (ip, port, id, if_idx); remote:
    (ip, port). ValueError for a bad address or value out of range."""
    lip, lport, lid, lif = local
    rip, rport = remote
    if not 0 <= token <= 0xFFFFFFFF:
        raise ValueError(f"token {token} out of range")
    if not (0 <= lport <= 0xFFFF and 0 < rport <= 0xFFFF and 0 <= lid <= 255):
        raise ValueError(f"bad port or id: {local} {remote}")
    if (":" in lip) != (":" in rip):
        raise ValueError(f"address families differ: {lip} {rip}")
    try:
        return [
            nla(MPTCP_PM_ATTR_TOKEN, struct.pack("=I", token)),
            nla_nested(MPTCP_PM_ATTR_ADDR, addr_attrs(lip, lport, lid, lif)),
            nla_nested(MPTCP_PM_ATTR_ADDR_REMOTE, addr_attrs(rip, rport)),
        ]
    except OSError as e:
        raise ValueError(f"bad address {lip} or {rip}") from e


# ---------------------------------------------------------------------------------------------
# Decoding


def parse_attrs(data):
    """[(type without flags, nested flag, payload)] of a run of attributes."""
    out = []
    off = 0
    while off < len(data):
        if len(data) - off < _NLA.size:
            raise MalformedMessage(f"truncated attribute header at {off}")
        length, atype = _NLA.unpack_from(data, off)
        if length < _NLA.size or off + length > len(data):
            raise MalformedMessage(f"attribute {atype & NLA_TYPE_MASK} length {length} at {off}")
        out.append(
            (atype & NLA_TYPE_MASK, bool(atype & NLA_F_NESTED), data[off + 4 : off + length])
        )
        off += _align(length)
    return out


def split_messages(data):
    """[(type, flags, seq, payload)] of the netlink messages in one datagram."""
    out = []
    off = 0
    while off < len(data):
        if len(data) - off < _NLMSGHDR.size:
            raise MalformedMessage(f"truncated netlink header at {off}")
        length, mtype, flags, seq, _pid = _NLMSGHDR.unpack_from(data, off)
        if length < _NLMSGHDR.size or off + length > len(data):
            raise MalformedMessage(f"netlink message length {length} at {off}")
        out.append((mtype, flags, seq, data[off + _NLMSGHDR.size : off + length]))
        off += _align(length)
    return out


def parse_error(payload, flags):
    """(errno, extended-ack text) of an NLMSG_ERROR payload; errno 0 is an acknowledgement."""
    if len(payload) < 4 + _NLMSGHDR.size:
        raise MalformedMessage("truncated netlink error")
    err = -struct.unpack_from("=i", payload, 0)[0]
    text = ""
    if flags & NLM_F_ACK_TLVS:
        inner_len = _NLMSGHDR.unpack_from(payload, 4)[0]
        capped = flags & 0x100  # NLM_F_CAPPED: only the request's header was echoed
        off = 4 + (_NLMSGHDR.size if capped else _align(inner_len))
        for atype, _n, value in parse_attrs(payload[off:]):
            if atype == NLMSGERR_ATTR_MSG:
                text = value.rstrip(b"\0").decode("utf-8", "replace")
    return err, text


@dataclass(frozen=True)
class Event:
    """One MPTCP path-manager event: its name and decoded attributes (token, saddr, daddr,
    sport, dport, loc_id, rem_id, if_idx, error, ...)."""

    name: str
    attrs: dict

    def get(self, key, default=None):
        return self.attrs.get(key, default)


def decode_event(payload):
    """The Event of a "mptcp_pm_events" genl payload; None for an event type we do not know
    (newer kernels); MalformedMessage for one that does not parse."""
    if len(payload) < _GENLHDR.size:
        raise MalformedMessage("truncated genl header")
    cmd = payload[0]
    name = EVENT_NAMES.get(cmd)
    if name is None:
        return None
    attrs = {}
    for atype, _nested, value in parse_attrs(payload[_GENLHDR.size :]):
        spec = EVENT_ATTRS.get(atype)
        if spec is None:
            continue  # an attribute of a newer kernel
        key, fmt = spec
        if fmt == _IP4 or fmt == _IP6:
            family = socket.AF_INET if fmt == _IP4 else socket.AF_INET6
            size = 4 if fmt == _IP4 else 16
            if len(value) != size:
                raise MalformedMessage(f"event {name}: {key} of {len(value)} bytes")
            attrs[key] = socket.inet_ntop(family, value)
        else:
            size = struct.calcsize(fmt)
            if len(value) != size:
                raise MalformedMessage(f"event {name}: {key} of {len(value)} bytes, not {size}")
            attrs[key] = struct.unpack(fmt, value)[0]
    if "token" not in attrs and name not in ("listener_created", "listener_closed"):
        raise MalformedMessage(f"event {name} without a token")
    return Event(name, attrs)


def parse_family(payload):
    """(family id, {multicast group name: id}) of a CTRL_CMD_NEWFAMILY payload."""
    fid = None
    groups = {}
    for atype, _n, value in parse_attrs(payload[_GENLHDR.size :]):
        if atype == CTRL_ATTR_FAMILY_ID:
            if len(value) != 2:
                raise MalformedMessage("family id of the wrong size")
            fid = struct.unpack("=H", value)[0]
        elif atype == CTRL_ATTR_MCAST_GROUPS:
            for _i, _n2, grp in parse_attrs(value):
                name = gid = None
                for gtype, _n3, gval in parse_attrs(grp):
                    if gtype == CTRL_ATTR_MCAST_GRP_NAME:
                        name = gval.rstrip(b"\0").decode("ascii", "replace")
                    elif gtype == CTRL_ATTR_MCAST_GRP_ID and len(gval) == 4:
                        gid = struct.unpack("=I", gval)[0]
                if name is not None and gid is not None:
                    groups[name] = gid
    if fid is None:
        raise MalformedMessage("family reply without an id")
    return fid, groups


# ---------------------------------------------------------------------------------------------
# Sockets


class _GenlSocket:
    def __init__(self, timeout=5.0):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.settimeout(timeout)
        for opt in (NETLINK_CAP_ACK, NETLINK_EXT_ACK):
            try:
                self.sock.setsockopt(SOL_NETLINK, opt, 1)
            except OSError:
                pass  # older kernels: plain errors
        self.sock.bind((0, 0))
        self.seq = 0

    def close(self):
        self.sock.close()

    def fileno(self):
        return self.sock.fileno()

    def request(self, family, cmd, attrs, version=MPTCP_PM_VER):
        """Sends one request and returns the payloads of its replies (until the ack);
        NetlinkError when the kernel refuses it."""
        self.seq += 1
        seq = self.seq
        self.sock.send(genl_message(family, cmd, attrs, seq, version=version))
        replies = []
        while True:
            data = self.sock.recv(65536)
            for mtype, flags, mseq, payload in split_messages(data):
                if mseq != seq:
                    continue
                if mtype == NLMSG_ERROR:
                    err, text = parse_error(payload, flags)
                    if err:
                        raise NetlinkError(err, text)
                    return replies
                if mtype == NLMSG_DONE:
                    return replies
                replies.append(payload)

    def resolve(self, name):
        """(family id, groups) of a generic netlink family; FamilyMissing when absent."""
        attr = nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")
        try:
            replies = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, [attr], version=1)
        except NetlinkError as e:
            if e.errno == errno.ENOENT:
                raise FamilyMissing(name) from e
            raise
        if not replies:
            raise FamilyMissing(name)
        return parse_family(replies[0])


class MptcpPm(_GenlSocket):
    """Commands to the "mptcp_pm" family."""

    def __init__(self, timeout=5.0):
        super().__init__(timeout)
        try:
            self.family, self.groups = self.resolve(MPTCP_PM_NAME)
        except BaseException:
            self.close()
            raise

    def subflow_create(self, token, local, remote):
        """local (ip, 0, loc id, if_idx), remote (ip, port); NetlinkError on refusal."""
        self.request(self.family, MPTCP_PM_CMD_SUBFLOW_CREATE, subflow_attrs(token, local, remote))

    def subflow_destroy(self, token, local, remote):
        """local (ip, port, 0, 0), remote (ip, port); NetlinkError on refusal."""
        self.request(self.family, MPTCP_PM_CMD_SUBFLOW_DESTROY, subflow_attrs(token, local, remote))


class EventSocket(_GenlSocket):
    """The "mptcp_pm_events" multicast group. PermissionError without CAP_NET_ADMIN."""

    def __init__(self):
        super().__init__(timeout=None)
        try:
            self.family, groups = self.resolve(MPTCP_PM_NAME)
            if MPTCP_PM_EV_GRP_NAME not in groups:
                raise FamilyMissing(f"{MPTCP_PM_NAME} multicast group {MPTCP_PM_EV_GRP_NAME}")
            self.sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, groups[MPTCP_PM_EV_GRP_NAME])
            self.sock.setblocking(False)
        except BaseException:
            self.close()
            raise

    def read(self):
        """[(Event or None, error text or None)] of what is queued; a malformed message gives
        (None, why) and is otherwise ignored."""
        out = []
        while True:
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                return out
            except OSError as e:
                if e.errno != errno.ENOBUFS:
                    raise
                out.append((None, "events lost (receive buffer overrun)"))
                continue
            try:
                msgs = split_messages(data)
            except MalformedMessage as e:
                out.append((None, str(e)))
                continue
            for mtype, _flags, _seq, payload in msgs:
                if mtype != self.family:
                    continue
                try:
                    ev = decode_event(payload)
                except MalformedMessage as e:
                    out.append((None, str(e)))
                    continue
                if ev is not None:
                    out.append((ev, None))
