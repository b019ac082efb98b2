"""MPTCP socket options decoded with ctypes (Linux uapi `include/uapi/linux/mptcp.h`).

Python's socket.getsockopt cannot pass the in/out structures that MPTCP_FULL_INFO,
MPTCP_TCPINFO and MPTCP_SUBFLOW_ADDRS use (they carry user pointers or a size header that the
kernel rewrites), so getsockopt is called through libc. Field offsets are those of struct
tcp_info and struct mptcp_info in Linux 6.12; the kernel copies at most the size we pass, so a
field beyond what it filled is left out of the result.
"""

import ctypes
import os
import socket
import struct

IPPROTO_MPTCP = getattr(socket, "IPPROTO_MPTCP", 262)
SOL_MPTCP = 284
MPTCP_INFO = 1
MPTCP_TCPINFO = 2
MPTCP_SUBFLOW_ADDRS = 3
MPTCP_FULL_INFO = 4
MPTCP_INFO_FLAG_FALLBACK = 1

MPTCP_INFO_SIZE = 96
TCPINFO_SIZE = 248  # struct tcp_info of 6.12
SUBFLOW_ADDRS_SIZE = 256  # two __kernel_sockaddr_storage
SUBFLOW_INFO_SIZE = 264  # struct mptcp_subflow_info: id, pad, 2 x sockaddr_storage
_SUBFLOW_DATA_HEAD = struct.Struct("=IIII")  # struct mptcp_subflow_data
_FULL_INFO_HEAD = struct.Struct("=IIIIIIQQ")  # struct mptcp_full_info up to mptcp_info

# (name, offset, struct format)
TCPINFO_FIELDS = (
    ("state", 0, "B"),
    ("rtt_us", 68, "I"),
    ("cwnd", 80, "I"),
    ("total_retrans", 100, "I"),
    ("bytes_acked", 120, "Q"),
    ("bytes_received", 128, "Q"),
    ("min_rtt_us", 148, "I"),
    ("bytes_sent", 200, "Q"),
    ("bytes_retrans", 208, "Q"),
    ("rcv_ooopack", 224, "I"),
)
MPTCP_INFO_FIELDS = (
    ("subflows", 0, "B"),  # joined subflows, not counting the initial one
    ("add_addr_accepted", 2, "B"),
    ("subflows_max", 3, "B"),
    ("flags", 8, "I"),
    ("token", 12, "I"),
    ("write_seq", 16, "Q"),
    ("snd_una", 24, "Q"),
    ("rcv_nxt", 32, "Q"),
    ("retransmits", 44, "I"),
    ("bytes_retrans", 48, "Q"),
    ("bytes_sent", 56, "Q"),
    ("bytes_received", 64, "Q"),
    ("bytes_acked", 72, "Q"),
    ("subflows_total", 80, "B"),  # all live subflows (Linux 6.10+)
)

_libc = None


def _getsockopt(fd, opt, buf):
    """libc getsockopt(fd, SOL_MPTCP, opt, buf, &len): the length the kernel wrote; OSError."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.getsockopt.argtypes = [
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_uint32),
        ]
    length = ctypes.c_uint32(len(buf))
    if _libc.getsockopt(fd, SOL_MPTCP, opt, buf, ctypes.byref(length)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"getsockopt(SOL_MPTCP, {opt}): {os.strerror(err)}")
    return length.value


def decode_fields(buf, base, avail, spec):
    """{name: value} of the fields of spec that lie within avail bytes from base."""
    out = {}
    for name, off, fmt in spec:
        if off + struct.calcsize(fmt) <= avail:
            out[name] = struct.unpack_from("=" + fmt, buf, base + off)[0]
    return out


def format_sockaddr(buf, off=0):
    """ "ip:port" or "[ip6]:port" of a struct sockaddr_storage at off (None if unset)."""
    family = struct.unpack_from("=H", buf, off)[0]
    port = struct.unpack_from("!H", buf, off + 2)[0]
    if family == socket.AF_INET:
        return f"{socket.inet_ntop(socket.AF_INET, bytes(buf[off + 4 : off + 8]))}:{port}"
    if family == socket.AF_INET6:
        ip = socket.inet_ntop(socket.AF_INET6, bytes(buf[off + 8 : off + 24]))
        return f"[{ip}]:{port}"
    return None


def mptcp_info(fd):
    """MPTCP_INFO as a dict; OSError for a socket that is not MPTCP."""
    buf = ctypes.create_string_buffer(MPTCP_INFO_SIZE)
    got = _getsockopt(fd, MPTCP_INFO, buf)
    return decode_fields(buf.raw, 0, got, MPTCP_INFO_FIELDS)


def subflow_data(fd, opt, elem_size, max_subflows=16):
    """The elements (bytes each) of an MPTCP_TCPINFO / MPTCP_SUBFLOW_ADDRS answer."""
    head = _SUBFLOW_DATA_HEAD.size
    buf = ctypes.create_string_buffer(head + elem_size * max_subflows)
    _SUBFLOW_DATA_HEAD.pack_into(buf, 0, head, 0, 0, elem_size)
    _getsockopt(fd, opt, buf)
    size_head, num, _size_kernel, size_user = _SUBFLOW_DATA_HEAD.unpack_from(buf, 0)
    raw = buf.raw
    return [
        raw[size_head + i * size_user : size_head + (i + 1) * size_user]
        for i in range(min(num, max_subflows))
    ]


def subflows(fd):
    """[{local, remote, tcp_info fields}] of the live subflows (MPTCP_SUBFLOW_ADDRS and
    MPTCP_TCPINFO, Linux 5.16+); OSError when unavailable or inconsistent."""
    addrs = subflow_data(fd, MPTCP_SUBFLOW_ADDRS, SUBFLOW_ADDRS_SIZE)
    infos = subflow_data(fd, MPTCP_TCPINFO, TCPINFO_SIZE)
    if len(addrs) != len(infos):
        raise OSError(f"{len(addrs)} subflow addresses but {len(infos)} tcp_info entries")
    return [
        {
            "local": format_sockaddr(a, 0),
            "remote": format_sockaddr(a, 128),
            **decode_fields(t, 0, len(t), TCPINFO_FIELDS),
        }
        for a, t in zip(addrs, infos, strict=True)
    ]


def mptcp_full_info(fd, max_subflows=16):
    """getsockopt(SOL_MPTCP, MPTCP_FULL_INFO), Linux 6.6+: (mptcp_info dict, [subflow dicts
    with id, local, remote and the tcp_info fields])."""
    sf_buf = ctypes.create_string_buffer(SUBFLOW_INFO_SIZE * max_subflows)
    ti_buf = ctypes.create_string_buffer(TCPINFO_SIZE * max_subflows)
    head = ctypes.create_string_buffer(_FULL_INFO_HEAD.size + MPTCP_INFO_SIZE)
    _FULL_INFO_HEAD.pack_into(
        head,
        0,
        0,
        TCPINFO_SIZE,
        0,
        SUBFLOW_INFO_SIZE,
        0,
        max_subflows,
        ctypes.addressof(sf_buf),
        ctypes.addressof(ti_buf),
    )
    got = _getsockopt(fd, MPTCP_FULL_INFO, head)
    _, ti_size, _, sf_size, count, _, _, _ = _FULL_INFO_HEAD.unpack_from(head, 0)
    base = _FULL_INFO_HEAD.size
    info = decode_fields(head, base, got - base, MPTCP_INFO_FIELDS)
    out = []
    for k in range(min(count, max_subflows)):
        at = k * sf_size
        sf = {"id": struct.unpack_from("=I", sf_buf, at)[0] if sf_size >= 4 else None}
        if sf_size >= SUBFLOW_INFO_SIZE:
            sf["local"] = format_sockaddr(sf_buf, at + 8)
            sf["remote"] = format_sockaddr(sf_buf, at + 136)
        sf.update(decode_fields(ti_buf, k * ti_size, ti_size, TCPINFO_FIELDS))
        out.append(sf)
    return info, out


def is_fallback(info):
    return bool(info.get("flags", 0) & MPTCP_INFO_FLAG_FALLBACK)
