#!/usr/bin/env python3
"""Write the MPTCP handshake fixtures of the core's packet and MPTCP parsers.

`capture` (root) builds two network namespaces joined by two veth pairs, lets the kernel's MPTCP
(v1, RFC 8684) open a connection over the first pair and join a subflow over the second, captures
the client's frames with an AF_PACKET socket and writes the handshake frames as hex, one JSON file
per variant, to floodlight-module/core/src/test/resources/fixtures/mptcp-v1-<variant>.json.
The namespaces are deleted afterwards, also when something fails.

`handmade-v0` (no root) writes mptcp-v0-handmade.json: the same handshake in MPTCP v0 (RFC 6824)
built byte by byte from the RFC's layouts, since no kernel here speaks v0.

The internal roles `serve`, `connect`, `sniff` and `txoff` run inside a namespace
(`ip netns exec NS python3 this-file ROLE`): Python 3.11 has no os.setns.
"""

import argparse
import ctypes
import datetime
import fcntl
import hashlib
import hmac
import json
import pathlib
import platform
import select
import socket
import struct
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = REPO / "floodlight-module/core/src/test/resources/fixtures"
CLIENT_NS = "mpqoe-fx-client"
SERVER_NS = "mpqoe-fx-server"
# One veth pair per path: client interface, MAC, address; server interface, MAC, address.
LINKS = (
    ("cli0", "02:00:00:00:0c:00", "10.77.1.1", "srv0", "02:00:00:00:05:00", "10.77.1.2"),
    ("cli1", "02:00:00:00:0c:01", "10.77.2.1", "srv1", "02:00:00:00:05:01", "10.77.2.2"),
)
SERVER_ADDR = LINKS[0][5]
PORT = 15201
IPPROTO_MPTCP = getattr(socket, "IPPROTO_MPTCP", 262)
VARIANTS = {
    "basic": {"checksum": False, "backup": False},
    "csum-backup": {"checksum": True, "backup": True},
}
TCP_SYN, TCP_ACK = 0x02, 0x10
MPTCP_KIND, MP_CAPABLE, MP_JOIN = 30, 0, 1


# ---- running commands -------------------------------------------------------------------------


def run(*cmd: str, check: bool = True) -> None:
    subprocess.run(
        cmd, check=check, stdout=subprocess.DEVNULL, stderr=None if check else subprocess.DEVNULL
    )


def in_ns(ns: str, *role: str) -> list[str]:
    return ["ip", "netns", "exec", ns, sys.executable, str(pathlib.Path(__file__).resolve()), *role]


def setup(checksum: bool, backup: bool) -> None:
    run("ip", "netns", "add", CLIENT_NS)
    run("ip", "netns", "add", SERVER_NS)
    for cif, cmac, caddr, sif, smac, saddr in LINKS:
        run(
            "ip",
            "link",
            "add",
            cif,
            "address",
            cmac,
            "netns",
            CLIENT_NS,
            "type",
            "veth",
            "peer",
            "name",
            sif,
            "address",
            smac,
            "netns",
            SERVER_NS,
        )
        run("ip", "-n", CLIENT_NS, "addr", "add", f"{caddr}/24", "dev", cif)
        run("ip", "-n", SERVER_NS, "addr", "add", f"{saddr}/24", "dev", sif)
        run("ip", "-n", CLIENT_NS, "link", "set", cif, "up")
        run("ip", "-n", SERVER_NS, "link", "set", sif, "up")
    for ns in (CLIENT_NS, SERVER_NS):
        run("ip", "-n", ns, "link", "set", "lo", "up")
        run(
            "ip",
            "netns",
            "exec",
            ns,
            "sysctl",
            "-qw",
            "net.mptcp.enabled=1",
            f"net.mptcp.checksum_enabled={int(checksum)}",
            "net.ipv4.conf.all.rp_filter=0",
            "net.ipv4.conf.default.rp_filter=0",
        )
        run("ip", "-n", ns, "mptcp", "limits", "set", "subflow", "2", "add_addr_accepted", "2")
    # The client's second address opens a subflow over its own link: source routing for it.
    cif, _, caddr, _, _, saddr = LINKS[1]
    flags = ["subflow", "backup"] if backup else ["subflow"]
    run("ip", "-n", CLIENT_NS, "mptcp", "endpoint", "add", caddr, "dev", cif, *flags)
    run("ip", "-n", CLIENT_NS, "rule", "add", "from", caddr, "table", "100")
    run("ip", "-n", CLIENT_NS, "route", "add", "default", "via", saddr, "dev", cif, "table", "100")
    # Without this, outgoing frames carry partial TCP checksums (veth checksum offload).
    run(*in_ns(CLIENT_NS, "txoff", *(link[0] for link in LINKS)))
    run(*in_ns(SERVER_NS, "txoff", *(link[3] for link in LINKS)))


def cleanup() -> None:
    for ns in (CLIENT_NS, SERVER_NS):
        run("ip", "netns", "del", ns, check=False)


def await_line(proc: subprocess.Popen, expected: str, timeout: float) -> None:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline().strip() if ready else ""
    if line != expected:
        raise RuntimeError(f"{proc.args[-1]} did not start (said {line!r})")


def exchange() -> list[dict]:
    """Run server, sniffer and client; return the sniffed frames."""
    procs = []
    try:
        sniffer = subprocess.Popen(
            in_ns(CLIENT_NS, "sniff"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        procs.append(sniffer)
        await_line(sniffer, "ready", 10)
        server = subprocess.Popen(in_ns(SERVER_NS, "serve"), stdout=subprocess.PIPE, text=True)
        procs.append(server)
        await_line(server, "ready", 10)
        subprocess.run(in_ns(CLIENT_NS, "connect"), check=True, timeout=30)
        server.wait(timeout=10)
        time.sleep(0.2)
        out, _ = sniffer.communicate(timeout=10)
        return json.loads(out)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


# ---- roles inside a namespace -----------------------------------------------------------------


def role_txoff(interfaces: list[str]) -> None:
    """Turn off TX checksum offload (SIOCETHTOOL, ETHTOOL_STXCSUM) so frames carry real sums."""
    value = ctypes.create_string_buffer(struct.pack("=II", 0x17, 0))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in interfaces:
            ifreq = struct.pack("=16sQ", name.encode(), ctypes.addressof(value)).ljust(40, b"\0")
            fcntl.ioctl(sock.fileno(), 0x8946, ifreq)


def role_serve() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP) as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("0.0.0.0", PORT))
        listener.listen(1)
        print("ready", flush=True)
        listener.settimeout(20)
        conn, _ = listener.accept()
        with conn:
            while data := conn.recv(4096):
                conn.sendall(data)


def role_connect() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP) as sock:
        sock.settimeout(10)
        sock.connect((SERVER_ADDR, PORT))
        for i in range(6):  # keep the connection busy while the path manager joins a subflow
            message = f"mpqoe fixture {i}\n".encode()
            sock.sendall(message)
            received = b""
            while len(received) < len(message):
                received += sock.recv(4096)
            time.sleep(0.25)


def role_sniff() -> None:
    """Print the TCP frames of PORT seen on the client's interfaces until stdin closes."""
    frames = []
    with socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003)) as sock:
        print("ready", flush=True)
        while True:
            ready, _, _ = select.select([sock, sys.stdin], [], [], 30)
            if not ready or (sys.stdin in ready and not sys.stdin.readline()):
                break
            if sock in ready:
                data, (ifname, _, pkttype, _, _) = sock.recvfrom(65535)
                seg = tcp_segment(data)
                if seg and PORT in (seg["sport"], seg["dport"]) and ifname.startswith("cli"):
                    frames.append({"interface": ifname, "pkttype": pkttype, "hex": data.hex()})
    print(json.dumps(frames))


# ---- a small independent parser for picking the frames ----------------------------------------


def tcp_segment(frame: bytes) -> dict | None:
    """Ethernet II / IPv4 / TCP fields, or None for anything else."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[14] >> 4 != 4 or frame[23] != 6:
        return None
    ihl = (frame[14] & 0x0F) * 4
    total = struct.unpack_from("!H", frame, 16)[0]
    tcp = 14 + ihl
    sport, dport, seq, ack, off_flags = struct.unpack_from("!HHIIH", frame, tcp)
    doff = (off_flags >> 12) * 4
    return {
        "src": socket.inet_ntoa(frame[26:30]),
        "dst": socket.inet_ntoa(frame[30:34]),
        "sport": sport,
        "dport": dport,
        "seq": seq,
        "flags": off_flags & 0xFF,
        "options": frame[tcp + 20 : tcp + doff],
        "payload": total - ihl - doff,
    }


def mptcp_options(options: bytes) -> list[tuple[int, bytes]]:
    """(subtype, whole option) of every MPTCP option."""
    found, i = [], 0
    while i < len(options) and options[i] != 0:
        if options[i] == 1:
            i += 1
            continue
        if i + 1 >= len(options) or options[i + 1] < 2:
            break
        opt = options[i : i + options[i + 1]]
        if opt[0] == MPTCP_KIND and len(opt) > 2:
            found.append((opt[2] >> 4, opt))
        i += options[i + 1]
    return found


def step_of(seg: dict) -> str | None:
    syn, ack = bool(seg["flags"] & TCP_SYN), bool(seg["flags"] & TCP_ACK)
    for subtype, opt in mptcp_options(seg["options"]):
        if subtype == MP_CAPABLE:
            if syn:
                return "CAPABLE_SYNACK" if ack else "CAPABLE_SYN"
            return "CAPABLE_ACK_DATA" if seg["payload"] > 0 else "CAPABLE_ACK"
        if subtype == MP_JOIN:
            return {12: "JOIN_SYN", 16: "JOIN_SYNACK", 24: "JOIN_ACK"}.get(len(opt))
    return None


# ---- MPTCP crypto (RFC 8684 section 3.2 / RFC 6824 section 3.2) -------------------------------


def digest(key: int, version: int) -> bytes:
    algorithm = hashlib.sha1 if version == 0 else hashlib.sha256
    return algorithm(key.to_bytes(8, "big")).digest()


def token(key: int, version: int) -> int:
    return int.from_bytes(digest(key, version)[:4], "big")


def idsn(key: int, version: int) -> int:
    return int.from_bytes(digest(key, version)[-8:], "big")


def derived(client_key: int, server_key: int, version: int) -> dict:
    return {
        "note": "computed by tools/capture_mptcp_fixtures.py with hashlib",
        "clientKey": f"{client_key:016x}",
        "serverKey": f"{server_key:016x}",
        "clientToken": f"{token(client_key, version):08x}",
        "serverToken": f"{token(server_key, version):08x}",
        "clientIdsn": f"{idsn(client_key, version):016x}",
        "serverIdsn": f"{idsn(server_key, version):016x}",
    }


# ---- capture ----------------------------------------------------------------------------------

DIRECTION = {0: "server-to-client", 4: "client-to-server"}  # PACKET_HOST, PACKET_OUTGOING
WANTED = ["CAPABLE_SYN", "CAPABLE_SYNACK", "CAPABLE_ACK", "CAPABLE_ACK_DATA", "SERVER_FIRST_DATA"]
WANTED += ["JOIN_SYN", "JOIN_SYNACK", "JOIN_ACK"]


def pick(frames: list[dict]) -> list[dict]:
    """The first frame of each handshake step and the first data frame of each side, in order."""
    picked: dict[str, dict] = {}
    for frame in frames:
        seg = tcp_segment(bytes.fromhex(frame["hex"]))
        step = step_of(seg)
        direction = DIRECTION.get(frame["pkttype"], "other")
        if step is None and seg["payload"] > 0 and direction == "server-to-client":
            step = "SERVER_FIRST_DATA"  # the server's first DSS mapping: DSN = server IDSN + 1
        if step and step not in picked:
            picked[step] = {
                "label": step,
                "expect": step.removesuffix("_DATA") if step.startswith("CAPABLE") else step,
                "interface": frame["interface"],
                "direction": direction,
                "hex": frame["hex"],
            }
    if step_missing := [s for s in WANTED if s not in picked]:
        raise RuntimeError(f"capture lacks {step_missing}; saw {len(frames)} frames")
    picked["SERVER_FIRST_DATA"]["expect"] = "NONE"
    return sorted(picked.values(), key=lambda f: frames_index(frames, f["hex"]))


def frames_index(frames: list[dict], hex_frame: str) -> int:
    return next(i for i, f in enumerate(frames) if f["hex"] == hex_frame)


def keys_of(picked: list[dict]) -> tuple[int, int, int]:
    """Client key, server key (both from the third ACK) and the MP_JOIN SYN's token."""
    by_label = {f["label"]: tcp_segment(bytes.fromhex(f["hex"])) for f in picked}
    mpc = next(o for s, o in mptcp_options(by_label["CAPABLE_ACK"]["options"]) if s == MP_CAPABLE)
    mpj = next(o for s, o in mptcp_options(by_label["JOIN_SYN"]["options"]) if s == MP_JOIN)
    client_key, server_key = struct.unpack_from("!QQ", mpc, 4)
    return client_key, server_key, struct.unpack_from("!I", mpj, 4)[0]


def capture(variant: str, out_dir: pathlib.Path) -> pathlib.Path:
    options = VARIANTS[variant]
    cleanup()
    try:
        setup(**options)
        picked = pick(exchange())
    finally:
        cleanup()
    client_key, server_key, join_token = keys_of(picked)
    if token(server_key, 1) != join_token:
        raise RuntimeError(f"server token {token(server_key, 1):08x} != MP_JOIN's {join_token:08x}")
    fixture = {
        "schema": 1,
        "source": "captured",
        "mptcpVersion": 1,
        "description": f"Linux MPTCP v1 handshake and one joined subflow, variant {variant}: "
        f"net.mptcp.checksum_enabled={int(options['checksum'])}, "
        f"join endpoint {'backup' if options['backup'] else 'not backup'}",
        "kernel": platform.release(),
        "capturedAt": datetime.date.today().isoformat(),
        "command": f"sudo python3 tools/capture_mptcp_fixtures.py capture --variant {variant}",
        "capturePoint": "AF_PACKET socket in the client namespace, TX checksum offload off",
        "client": {"interfaces": {c[0]: c[2] for c in LINKS}},
        "server": {"address": SERVER_ADDR, "port": PORT},
        "derived": derived(client_key, server_key, 1),
        "frames": picked,
    }
    path = out_dir / f"mptcp-v1-{variant}.json"
    path.write_text(json.dumps(fixture, indent=2) + "\n")
    return path


# ---- hand-made v0 -----------------------------------------------------------------------------


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def frame(src: tuple, dst: tuple, seq: int, ack: int, flags: int, options: bytes) -> bytes:
    """Ethernet II + IPv4 + TCP with valid checksums; src/dst are (mac, ip, port)."""
    assert len(options) % 4 == 0 and len(options) <= 40
    ip_src, ip_dst = socket.inet_aton(src[1]), socket.inet_aton(dst[1])
    tcp = (
        struct.pack(
            "!HHIIBBHHH", src[2], dst[2], seq, ack, (5 + len(options) // 4) << 4, flags, 64240, 0, 0
        )
        + options
    )
    pseudo = ip_src + ip_dst + struct.pack("!BBH", 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack("!H", checksum(pseudo + tcp)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 1, 0x4000, 64, 6, 0, ip_src, ip_dst)
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    eth = bytes.fromhex(dst[0].replace(":", "")) + bytes.fromhex(src[0].replace(":", ""))
    return eth + b"\x08\x00" + ip + tcp


SYN_OPTIONS = bytes.fromhex("020405b40402080a0001e2400000000001030307")
ACK_OPTIONS = bytes.fromhex("0101080a0001e24a0003c8f0")


def mp_capable(keys: list[int]) -> bytes:
    """RFC 6824 MP_CAPABLE: version 0, flags A (checksum) and H (HMAC-SHA1), 1 or 2 keys."""
    return struct.pack(f"!BBBB{len(keys)}Q", MPTCP_KIND, 4 + 8 * len(keys), 0x00, 0x81, *keys)


def handmade_v0(out_dir: pathlib.Path) -> pathlib.Path:
    # Keys whose SHA-1 tokens were published with a real v0 trace (github.com/gureya/
    # mptcp-assignment, README): token(client) = 3453009450, token(server) = 1187499290.
    client_key, server_key = 2097874973131745533, 14232633393355152416
    assert token(client_key, 0) == 3453009450 and token(server_key, 0) == 1187499290
    client_nonce, server_nonce, address_id = 0x1A2B3C4D, 0x5E6F7081, 2
    a = ("02:00:00:00:0c:00", "10.77.1.1", 40000)
    b = ("02:00:00:00:05:00", "10.77.1.2", PORT)
    a2 = ("02:00:00:00:0c:01", "10.77.2.1", 40001)
    b2 = ("02:00:00:00:05:01", "10.77.1.2", PORT)
    # MP_JOIN (RFC 6824 3.2): B = responder (server), A = initiator (client).
    key_b_a = server_key.to_bytes(8, "big") + client_key.to_bytes(8, "big")
    nonces_b_a = server_nonce.to_bytes(4, "big") + client_nonce.to_bytes(4, "big")
    hmac_b = hmac.new(key_b_a, nonces_b_a, hashlib.sha1).digest()
    hmac_a = hmac.new(key_b_a[8:] + key_b_a[:8], nonces_b_a[4:] + nonces_b_a[:4], hashlib.sha1)
    join_syn = struct.pack(
        "!BBBBII", MPTCP_KIND, 12, 0x10, address_id, token(server_key, 0), client_nonce
    )
    join_synack = struct.pack("!BBBB8sI", MPTCP_KIND, 16, 0x10, 0, hmac_b[:8], server_nonce)
    join_ack = struct.pack("!BBBB20s", MPTCP_KIND, 24, 0x10, 0, hmac_a.digest())
    steps = [
        ("CAPABLE_SYN", a, b, 1000, 0, TCP_SYN, SYN_OPTIONS + mp_capable([client_key])),
        (
            "CAPABLE_SYNACK",
            b,
            a,
            5000,
            1001,
            TCP_SYN | TCP_ACK,
            SYN_OPTIONS + mp_capable([server_key]),
        ),
        (
            "CAPABLE_ACK",
            a,
            b,
            1001,
            5001,
            TCP_ACK,
            ACK_OPTIONS + mp_capable([client_key, server_key]),
        ),
        ("JOIN_SYN", a2, b2, 7000, 0, TCP_SYN, SYN_OPTIONS + join_syn),
        ("JOIN_SYNACK", b2, a2, 9000, 7001, TCP_SYN | TCP_ACK, SYN_OPTIONS + join_synack),
        ("JOIN_ACK", a2, b2, 7001, 9001, TCP_ACK, ACK_OPTIONS + join_ack),
    ]
    frames = []
    for label, src, dst, seq, ack, flags, options in steps:
        direction = "client-to-server" if src[2] != PORT else "server-to-client"
        interface = "cli0" if src[1].endswith(".1.1") or dst[1].endswith(".1.1") else "cli1"
        hex_frame = frame(src, dst, seq, ack, flags, options).hex()
        frames.append(
            {
                "label": label,
                "expect": label,
                "interface": interface,
                "direction": direction,
                "hex": hex_frame,
            }
        )
    fixture = {
        "schema": 1,
        "source": "hand-made",
        "mptcpVersion": 0,
        "description": "MPTCP v0 (RFC 6824) handshake and MP_JOIN built by hand from the RFC's "
        "option layouts (no kernel here speaks v0); HMACs are real HMAC-SHA1 over the keys and "
        "nonces, checksums are valid",
        "kernel": None,
        "command": "python3 tools/capture_mptcp_fixtures.py handmade-v0",
        "client": {"interfaces": {"cli0": a[1], "cli1": a2[1]}},
        "server": {"address": b[1], "port": PORT},
        "derived": derived(client_key, server_key, 0),
        "frames": frames,
    }
    path = out_dir / "mptcp-v0-handmade.json"
    path.write_text(json.dumps(fixture, indent=2) + "\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="capture the v1 fixtures (root)")
    cap.add_argument("--variant", choices=[*VARIANTS, "all"], default="all")
    cap.add_argument("--out", type=pathlib.Path, default=FIXTURES)
    v0 = sub.add_parser("handmade-v0", help="write the hand-made v0 fixture")
    v0.add_argument("--out", type=pathlib.Path, default=FIXTURES)
    for role in ("serve", "connect", "sniff"):
        sub.add_parser(role, help="internal")
    sub.add_parser("txoff", help="internal").add_argument("interfaces", nargs="+")
    args = parser.parse_args()

    if args.command == "capture":
        args.out.mkdir(parents=True, exist_ok=True)
        for variant in VARIANTS if args.variant == "all" else [args.variant]:
            print(f"wrote {capture(variant, args.out)}")
    elif args.command == "handmade-v0":
        args.out.mkdir(parents=True, exist_ok=True)
        print(f"wrote {handmade_v0(args.out)}")
    elif args.command == "txoff":
        role_txoff(args.interfaces)
    else:
        {"serve": role_serve, "connect": role_connect, "sniff": role_sniff}[args.command]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
