"""A pcap reader (libpcap format, as `tcpdump -w` writes it) and the TCP handshakes in a
capture: for each SYN, when it was first sent and when its SYN/ACK arrived, and whether it was
an MPTCP MP_CAPABLE, an MP_JOIN or a plain TCP SYN (RFC 8684 section 3: option kind 30, subtype
in the high nibble of its third byte)."""

import socket
import struct

ETHERNET, LINUX_SLL, LINUX_SLL2 = 1, 113, 276
_MAGIC = {
    b"\xd4\xc3\xb2\xa1": ("<", 1e-6),
    b"\xa1\xb2\xc3\xd4": (">", 1e-6),
    b"\x4d\x3c\xb2\xa1": ("<", 1e-9),
    b"\xa1\xb2\x3c\x4d": (">", 1e-9),
}
SYN, ACK = 0x02, 0x10
MPTCP_OPTION = 30
MP_CAPABLE, MP_JOIN = 0, 1


def read_pcap(data):
    """(link type, [(time s, frame bytes)]) of a pcap file's bytes; ValueError if not pcap. A
    last record cut short (capture stopped while writing) is left out."""
    if len(data) < 24 or data[:4] not in _MAGIC:
        raise ValueError("not a pcap file")
    endian, unit = _MAGIC[data[:4]]
    linktype = struct.unpack_from(endian + "I", data, 20)[0] & 0x0FFFFFFF
    rec = struct.Struct(endian + "IIII")
    out, pos = [], 24
    while pos + rec.size <= len(data):
        sec, frac, caplen, _orig = rec.unpack_from(data, pos)
        pos += rec.size
        if pos + caplen > len(data):
            break
        out.append((sec + frac * unit, data[pos : pos + caplen]))
        pos += caplen
    return linktype, out


def _ip_payload(linktype, frame):
    """The IPv4 packet in a frame, or None."""
    if linktype == ETHERNET:
        off, ethertype = 14, struct.unpack_from("!H", frame, 12)[0] if len(frame) >= 14 else 0
        while ethertype == 0x8100 and len(frame) >= off + 4:  # VLAN tags
            ethertype = struct.unpack_from("!H", frame, off + 2)[0]
            off += 4
    elif linktype == LINUX_SLL:
        off, ethertype = 16, struct.unpack_from("!H", frame, 14)[0] if len(frame) >= 16 else 0
    elif linktype == LINUX_SLL2:
        off, ethertype = 20, struct.unpack_from("!H", frame, 0)[0] if len(frame) >= 20 else 0
    else:
        raise ValueError(f"link type {linktype} not supported")
    return frame[off:] if ethertype == 0x0800 else None


def mptcp_kind(options):
    """'MP_CAPABLE', 'MP_JOIN', 'MPTCP' (another subtype) or None for TCP options bytes."""
    i = 0
    while i < len(options):
        kind = options[i]
        if kind == 0:
            break
        if kind == 1:
            i += 1
            continue
        if i + 1 >= len(options) or options[i + 1] < 2:
            break
        length = options[i + 1]
        if kind == MPTCP_OPTION and length >= 3 and i + 2 < len(options):
            sub = options[i + 2] >> 4
            return {MP_CAPABLE: "MP_CAPABLE", MP_JOIN: "MP_JOIN"}.get(sub, "MPTCP")
        i += length
    return None


def tcp_segments(linktype, frames):
    """[{t, src, dst, sport, dport, seq, ack, flags, mptcp}] of the IPv4 TCP frames."""
    out = []
    for t, frame in frames:
        ip = _ip_payload(linktype, frame)
        if ip is None or len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != socket.IPPROTO_TCP:
            continue
        ihl = (ip[0] & 0x0F) * 4
        tcp = ip[ihl:]
        if len(tcp) < 20:
            continue
        sport, dport, seq, ack, off_flags = struct.unpack_from("!HHIIH", tcp, 0)
        doff = (off_flags >> 12) * 4
        out.append(
            {
                "t": t,
                "src": socket.inet_ntoa(ip[12:16]),
                "dst": socket.inet_ntoa(ip[16:20]),
                "sport": sport,
                "dport": dport,
                "seq": seq,
                "ack": ack,
                "flags": off_flags & 0x1FF,
                "mptcp": mptcp_kind(tcp[20:doff]),
            }
        )
    return out


def handshakes(segments):
    """One dict per SYN sent (retransmissions folded in), in order of the first SYN:
    client/server "ip:port", kind (MP_CAPABLE, MP_JOIN, TCP), syn_t (first SYN), syns (how
    many were sent), synack_t (first matching SYN/ACK, None if none came) and setup_ms."""
    by_key, order = {}, []
    for s in sorted(segments, key=lambda x: x["t"]):
        flags = s["flags"]
        if flags & SYN and not flags & ACK:
            key = (s["src"], s["sport"], s["dst"], s["dport"], s["seq"])
            h = by_key.get(key)
            if h is None:
                h = by_key[key] = {
                    "client": f"{s['src']}:{s['sport']}",
                    "server": f"{s['dst']}:{s['dport']}",
                    "kind": s["mptcp"] if s["mptcp"] in ("MP_CAPABLE", "MP_JOIN") else "TCP",
                    "syn_t": s["t"],
                    "syns": 0,
                    "synack_t": None,
                    "setup_ms": None,
                }
                order.append(h)
            h["syns"] += 1
        elif flags & SYN and flags & ACK:
            key = (s["dst"], s["dport"], s["src"], s["sport"], (s["ack"] - 1) & 0xFFFFFFFF)
            h = by_key.get(key)
            if h is not None and h["synack_t"] is None:
                h["synack_t"] = s["t"]
                h["setup_ms"] = (s["t"] - h["syn_t"]) * 1000
    return order


def capture_handshakes(paths):
    """handshakes() over the TCP segments of several pcap files (unreadable ones skipped)."""
    segments = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                linktype, frames = read_pcap(f.read())
        except (OSError, ValueError):
            continue
        segments += tcp_segments(linktype, frames)
    return handshakes(segments)
