"""A pcap reader (libpcap format, as `tcpdump -w` writes it) and the TCP handshakes in a
capture: for each SYN, when it was first sent and when its SYN/ACK arrived, and whether it was
an MPTCP MP_CAPABLE, an MP_JOIN or a plain TCP SYN (RFC 8684 section 3: option kind 30, subtype
in the high nibble of its third byte)."""

import socket
import struct
import sys

ETHERNET, LINUX_SLL, LINUX_SLL2 = 1, 113, 276
_MAGIC = {
    b"\xd4\xc3\xb2\xa1": ("<", 1e-6),
    b"\xa1\xb2\xc3\xd4": (">", 1e-6),
    b"\x4d\x3c\xb2\xa1": ("<", 1e-9),
    b"\xa1\xb2\x3c\x4d": (">", 1e-9),
}
SYN, RST, ACK = 0x02, 0x04, 0x10
MPTCP_OPTION = 30
MP_CAPABLE, MP_JOIN, DSS = 0, 1, 2


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


def mptcp_option(options):
    """The first MPTCP option (kind 30) in TCP options bytes, as bytes from its kind on, or
    None."""
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
            return options[i : i + length]
        i += length
    return None


def mptcp_kind(options):
    """'MP_CAPABLE', 'MP_JOIN', 'DSS', 'MPTCP' (another subtype) or None for TCP options
    bytes."""
    opt = mptcp_option(options)
    if opt is None:
        return None
    return {MP_CAPABLE: "MP_CAPABLE", MP_JOIN: "MP_JOIN", DSS: "DSS"}.get(opt[2] >> 4, "MPTCP")


def dss_flags(options):
    """The flags byte of a DSS option (RFC 8684 section 3.3: A 0x01 data ACK present, M 0x04
    mapping present, F 0x10 DATA_FIN), or None when the segment has no DSS."""
    opt = mptcp_option(options)
    if opt is None or opt[2] >> 4 != DSS or len(opt) < 4:
        return None
    return opt[3]


def tcp_segments(linktype, frames):
    """[{t, src, dst, sport, dport, seq, ack, flags, len (payload bytes, from the IP header, so
    right for frames cut short by the capture), mptcp (mptcp_kind), dss (dss_flags)}] of the
    IPv4 TCP frames."""
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
        options = tcp[20:doff]
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
                "len": struct.unpack_from("!H", ip, 2)[0] - ihl - doff,
                "mptcp": mptcp_kind(options),
                "dss": dss_flags(options),
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


SETUP_COLUMNS = (
    "variant",
    "seed",
    "status",
    "client",
    "kind",
    "client_addr",
    "server_addr",
    "setup_ms",
    "syns",
)


def setup_rows(found, owner, ping_ms):
    """A table of set-up times (SETUP_COLUMNS but variant, seed and status, which the writer
    adds; e2e_controller.py --setup-csv, docs/perf.md): per SYN of found (handshakes()) its
    client (owner: {ip: host name}), kind ("first MP_CAPABLE" for the first MP_CAPABLE,
    "MP_CAPABLE", "MP_JOIN", "TCP"), addresses, set-up time (empty when no SYN/ACK came) and
    SYNs sent; per ping of ping_ms ({host: [ms]}) its client and round-trip time, kind
    "first ping" for a host's first and "ping" after."""
    rows, first = [], True
    for h in found:
        kind = h["kind"]
        if kind == "MP_CAPABLE" and first:
            kind, first = "first MP_CAPABLE", False
        ip = h["client"].split(":")[0]
        rows.append(
            {
                "client": owner.get(ip, ip),
                "kind": kind,
                "client_addr": h["client"],
                "server_addr": h["server"],
                "setup_ms": None if h["setup_ms"] is None else f"{h['setup_ms']:.3f}",
                "syns": h["syns"],
            }
        )
    for who, times in ping_ms.items():
        for k, t in enumerate(times):
            rows.append(
                {"client": who, "kind": "first ping" if k == 0 else "ping", "setup_ms": f"{t:.3f}"}
            )
    return rows


def capture_segments(paths):
    """tcp_segments() of several pcap files (unreadable ones skipped)."""
    segments = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                linktype, frames = read_pcap(f.read())
        except (OSError, ValueError):
            continue
        segments += tcp_segments(linktype, frames)
    return segments


def capture_handshakes(paths):
    """handshakes() over the TCP segments of several pcap files (unreadable ones skipped)."""
    return handshakes(capture_segments(paths))


def _brief(s, isn, t0):
    """One segment of a connection: ms after its SYN, direction, flags, relative sequence and
    acknowledgement numbers, payload bytes, MPTCP option (with the DSS flags)."""
    mine, theirs = isn[s["from_client"]], isn[not s["from_client"]]
    opt = s["mptcp"] or "-"
    if s["dss"] is not None:
        opt += f"(0x{s['dss']:02x})"
    acked = theirs is not None and s["flags"] & ACK
    return {
        "ms": round((s["t"] - t0) * 1000, 1),
        "way": "c>s" if s["from_client"] else "s>c",
        "flags": s["flags"],
        "seq": (s["seq"] - mine) & 0xFFFFFFFF if mine is not None else None,
        "ack": (s["ack"] - theirs) & 0xFFFFFFFF if acked else None,
        "len": s["len"],
        "mptcp": opt,
    }


def lost_mptcp(segments, context=8):
    """The connections of a capture that began with an MP_CAPABLE SYN and then carried a
    segment without any MPTCP option, resets apart (a fallback to TCP, RFC 8684 section 3.7):
    per connection client, server, syn_t, the first such segment after the handshake
    (`first_plain`, see _brief: `seq` counts from the sender's SYN) and the `context` segments
    before it."""
    conns, order = {}, []
    for s in sorted(segments, key=lambda x: x["t"]):
        fwd = (s["src"], s["sport"], s["dst"], s["dport"])
        rev = (s["dst"], s["dport"], s["src"], s["sport"])
        if s["flags"] & SYN and not s["flags"] & ACK and s["mptcp"] == "MP_CAPABLE":
            if fwd not in conns:
                conns[fwd] = {"isn": {True: s["seq"], False: None}, "t0": s["t"], "segs": []}
                order.append(fwd)
        c, from_client = (conns[fwd], True) if fwd in conns else (conns.get(rev), False)
        if c is None:
            continue
        if s["flags"] & SYN and s["flags"] & ACK:
            c["isn"][False] = s["seq"]
        c["segs"].append({**s, "from_client": from_client})
    out = []
    for key in order:
        c = conns[key]
        segs = c["segs"]
        plain = [
            i for i, s in enumerate(segs) if not s["flags"] & (SYN | RST) and s["mptcp"] is None
        ]  # fmt: skip
        if not plain:
            continue
        i = plain[0]
        out.append(
            {
                "client": f"{key[0]}:{key[1]}",
                "server": f"{key[2]}:{key[3]}",
                "syn_t": c["t0"],
                "first_plain": _brief(segs[i], c["isn"], c["t0"]),
                "before": [_brief(s, c["isn"], c["t0"]) for s in segs[max(0, i - context) : i]],
            }
        )
    return out


def main(argv):
    """pcap.py FILE...: per file, the connections that lost MPTCP (lost_mptcp), as JSON lines."""
    import json  # noqa: PLC0415 - only the command line prints

    if not argv:
        print("usage: pcap.py FILE.pcap...", file=sys.stderr)
        return 2
    for path in argv:
        for c in lost_mptcp(capture_segments([path])):
            print(json.dumps({"file": path, **c}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
