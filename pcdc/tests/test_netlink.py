"""The generic netlink encoding and strict decoding (mptcp_genl.py, mptcp_diag.py) on
hand-built bytes, malformed messages included."""

import errno
import socket
import struct
import unittest

from mpqoe.pcdc import mptcp_diag
from mpqoe.pcdc import mptcp_genl as genl


def attr(t, payload):
    return genl.nla(t, payload)


def event(cmd, attrs):
    return struct.pack("=BBH", cmd, 1, 0) + b"".join(attrs)


SUB_ESTABLISHED = event(
    10,
    [
        attr(1, struct.pack("=I", 0xDEADBEEF)),
        attr(2, struct.pack("=H", socket.AF_INET)),
        attr(3, b"\x02"),
        attr(4, b"\x01"),
        attr(5, socket.inet_aton("10.0.2.1")),
        attr(7, socket.inet_aton("10.0.102.2")),
        attr(9, struct.pack("!H", 40000)),
        attr(10, struct.pack("!H", 5201)),
        attr(11, b"\x00"),
        attr(15, struct.pack("=i", 3)),
        attr(99, b"future attribute"),
    ],
)


class EncodeTest(unittest.TestCase):
    def test_attribute_is_padded(self):
        self.assertEqual(genl.nla(4, b"\x01"), b"\x05\x00\x04\x00\x01\x00\x00\x00")
        self.assertEqual(genl.nla(1, b"abcd"), b"\x08\x00\x01\x00abcd")

    def test_subflow_create_attributes(self):
        attrs = genl.subflow_attrs(0x01020304, ("10.0.2.1", 0, 2, 0), ("10.0.102.2", 5201))
        parsed = genl.parse_attrs(b"".join(attrs))
        self.assertEqual([(t, n) for t, n, _ in parsed], [(4, False), (1, True), (6, True)])
        self.assertEqual(parsed[0][2], struct.pack("=I", 0x01020304))
        local = dict((t, v) for t, _n, v in genl.parse_attrs(parsed[1][2]))
        self.assertEqual(local[genl.MPTCP_PM_ADDR_ATTR_FAMILY], struct.pack("=H", socket.AF_INET))
        self.assertEqual(local[genl.MPTCP_PM_ADDR_ATTR_ADDR4], socket.inet_aton("10.0.2.1"))
        self.assertEqual(local[genl.MPTCP_PM_ADDR_ATTR_ID], b"\x02")
        self.assertNotIn(genl.MPTCP_PM_ADDR_ATTR_PORT, local)  # port 0: the kernel picks one
        remote = dict((t, v) for t, _n, v in genl.parse_attrs(parsed[2][2]))
        self.assertEqual(remote[genl.MPTCP_PM_ADDR_ATTR_PORT], struct.pack("=H", 5201))

    def test_bad_values_are_refused(self):
        with self.assertRaises(ValueError):
            genl.subflow_attrs(1 << 32, ("10.0.0.1", 0, 1, 0), ("10.0.0.2", 80))
        with self.assertRaises(ValueError):
            genl.subflow_attrs(1, ("10.0.0.1", 0, 1, 0), ("10.0.0.2", 0))
        with self.assertRaises(ValueError):
            genl.subflow_attrs(1, ("10.0.0.1", 0, 300, 0), ("10.0.0.2", 80))
        with self.assertRaises(ValueError):
            genl.subflow_attrs(1, ("10.0.0.1", 0, 1, 0), ("fd00::2", 80))
        with self.assertRaises(ValueError):
            genl.subflow_attrs(1, ("10.0.0.300", 0, 1, 0), ("10.0.0.2", 80))

    def test_message_header(self):
        m = genl.genl_message(0x1C, 10, [genl.nla(4, b"\0\0\0\1")], seq=7)
        length, mtype, flags, seq, pid = struct.unpack_from("=IHHII", m)
        self.assertEqual((length, mtype, flags, seq, pid), (len(m), 0x1C, 5, 7, 0))
        self.assertEqual(m[16:20], b"\x0a\x01\x00\x00")


class DecodeTest(unittest.TestCase):
    def test_event(self):
        ev = genl.decode_event(SUB_ESTABLISHED)
        self.assertEqual(ev.name, "sub_established")
        self.assertEqual(
            ev.attrs,
            {"token": 0xDEADBEEF, "family": 2, "loc_id": 2, "rem_id": 1, "saddr": "10.0.2.1",
             "daddr": "10.0.102.2", "sport": 40000, "dport": 5201, "backup": 0, "if_idx": 3},
        )  # fmt: skip

    def test_unknown_event_type_is_skipped(self):
        self.assertIsNone(genl.decode_event(event(200, [attr(1, b"\0\0\0\1")])))

    def test_malformed_events(self):
        bad = {
            "truncated genl header": b"\x0a",
            "attribute past the end": event(2, [b"\x10\x00\x01\x00\x01\x00\x00\x00"]),
            "truncated attribute header": event(2, [b"\x08\x00"]),
            "short attribute length": event(2, [b"\x02\x00\x01\x00"]),
            "token of 2 bytes": event(2, [attr(1, b"\x01\x02")]),
            "address of 3 bytes": event(2, [attr(1, b"\0\0\0\1"), attr(5, b"\x0a\0\0")]),
            "no token": event(2, [attr(9, b"\x00\x50")]),
        }
        for why, payload in bad.items():
            with self.subTest(why), self.assertRaises(genl.MalformedMessage):
                genl.decode_event(payload)

    def test_split_messages(self):
        one = struct.pack("=IHHII", 20, 0x1C, 0, 1, 0) + b"abcd"
        two = struct.pack("=IHHII", 17, 0x1C, 0, 2, 0) + b"x" + b"\0\0\0"
        got = genl.split_messages(one + two)
        self.assertEqual([(t, s, p) for t, _f, s, p in got], [(0x1C, 1, b"abcd"), (0x1C, 2, b"x")])
        with self.assertRaises(genl.MalformedMessage):
            genl.split_messages(struct.pack("=IHHII", 99, 0x1C, 0, 1, 0))
        with self.assertRaises(genl.MalformedMessage):
            genl.split_messages(b"\x01\x02\x03")

    def test_error_with_extended_ack(self):
        inner = struct.pack("=IHHII", 40, 0x1C, 5, 3, 0)
        msg = b"missing required inputs\0"
        flags = genl.NLM_F_ACK_TLVS | 0x100  # capped: only the request's header
        payload = struct.pack("=i", -22) + inner + genl.nla(genl.NLMSGERR_ATTR_MSG, msg)
        self.assertEqual(genl.parse_error(payload, flags), (22, "missing required inputs"))
        self.assertEqual(genl.parse_error(struct.pack("=i", 0) + inner, 0), (0, ""))
        with self.assertRaises(genl.MalformedMessage):
            genl.parse_error(b"\0\0", 0)

    def test_family_reply(self):
        name = genl.nla(1, b"mptcp_pm_events\0")
        grp = genl.nla(1 | genl.NLA_F_NESTED, name + genl.nla(2, struct.pack("=I", 9)))
        fid = genl.nla(1, struct.pack("=H", 0x1C))
        payload = struct.pack("=BBH", 1, 2, 0) + fid + genl.nla(7 | genl.NLA_F_NESTED, grp)
        self.assertEqual(genl.parse_family(payload), (0x1C, {"mptcp_pm_events": 9}))
        with self.assertRaises(genl.MalformedMessage):
            genl.parse_family(struct.pack("=BBH", 1, 2, 0))


class FakeSock:
    def __init__(self, items):
        self.items = list(items)

    def recv(self, _n):
        item = self.items.pop(0) if self.items else BlockingIOError()
        if isinstance(item, BaseException):
            raise item
        return item


class EventReadTest(unittest.TestCase):
    def test_bad_messages_are_reported_and_the_rest_read(self):
        es = object.__new__(genl.EventSocket)
        es.family = 0x1C
        good = struct.pack("=IHHII", 16 + len(SUB_ESTABLISHED), 0x1C, 0, 0, 0) + SUB_ESTABLISHED
        bad_event = event(2, [attr(1, b"\x01")])
        bad = struct.pack("=IHHII", 16 + len(bad_event), 0x1C, 0, 0, 0) + bad_event
        other_family = struct.pack("=IHHII", 20, 0x1D, 0, 0, 0) + b"abcd"
        es.sock = FakeSock([b"\x05\x00", bad, OSError(errno.ENOBUFS, "overrun"), other_family,
                            good])  # fmt: skip
        got = es.read()
        self.assertEqual([e is None for e, _ in got], [True, True, True, False])
        self.assertIn("truncated netlink header", got[0][1])
        self.assertIn("token of 1 bytes", got[1][1])
        self.assertIn("events lost", got[2][1])
        self.assertEqual(got[3][0].attrs["sport"], 40000)
        es.sock = FakeSock([OSError(errno.EBADF, "bad fd")])
        with self.assertRaises(OSError):
            es.read()


class DiagTest(unittest.TestCase):
    def test_request(self):
        req = mptcp_diag.request(socket.AF_INET, 1)
        length, mtype, flags = struct.unpack_from("=IHH", req)
        self.assertEqual((length, mtype, flags), (len(req), 20, 0x301))
        family, proto, ext = struct.unpack_from("=BBB", req, 16)
        self.assertEqual((family, proto, ext), (socket.AF_INET, socket.IPPROTO_TCP, 2))
        # the MPTCP protocol number rides in INET_DIAG_REQ_PROTOCOL
        self.assertEqual(genl.parse_attrs(req[16 + 56 :]), [(3, False, struct.pack("=I", 262))])

    def test_dump(self):
        info = bytearray(96)
        struct.pack_into("=I", info, 12, 0xCAFE)
        struct.pack_into("=Q", info, 64, 700 * 1024)  # bytes_received
        struct.pack_into("=Q", info, 72, 5)  # bytes_acked
        msg = bytes(72) + genl.nla(2, bytes(info))
        msgs = [(20, 2, 1, msg), (3, 2, 1, b"\0\0\0\0")]
        got, done = mptcp_diag.decode_dump(msgs)
        self.assertTrue(done)
        self.assertEqual(mptcp_diag.carried(got[0xCAFE]), 700 * 1024 + 5)
        with self.assertRaises(genl.MalformedMessage):
            mptcp_diag.decode_dump([(20, 2, 1, bytes(10))])
        with self.assertRaises(genl.NetlinkError):
            mptcp_diag.decode_dump([(2, 0, 1, struct.pack("=i", -2) + bytes(16))])


if __name__ == "__main__":
    unittest.main()
