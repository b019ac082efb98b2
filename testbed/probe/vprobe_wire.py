"""The probe's wire protocol: a frame stream framed by two JSON control frames.

Every frame starts with a 24-byte header (magic "MPQV", index u32, payload size u32, send
CLOCK_REALTIME ns u64, flags u32, network order). The stream is, in this order: the hello
(index 0xfffffffe), the video frames 0..n-1, the trailer (index 0xffffffff); hello and
trailer carry JSON objects and have the control flag set. In file mode the stream is the body
of an HTTP response (vprobe_http.py).
"""

import json
import math
import struct
import time

SCHEMA = "mpqoe-vprobe/2"
MAGIC = b"MPQV"
HEADER = struct.Struct("!4sIIQI")  # magic, index, payload size, send ns (CLOCK_REALTIME), flags
HELLO_INDEX = 0xFFFFFFFE
TRAILER_INDEX = 0xFFFFFFFF
FLAG_CONTROL = 1
MAX_CONTROL_PAYLOAD = 1 << 20


def frame_sizes(bitrate, fps, frames):
    """Total bytes (header included) of each frame; they sum to frames*bitrate/8/fps, floored."""
    per = bitrate / 8.0 / fps
    return [math.floor((i + 1) * per) - math.floor(i * per) for i in range(frames)]


def control_frame(index, obj):
    payload = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()
    return HEADER.pack(MAGIC, index, len(payload), time.time_ns(), FLAG_CONTROL) + payload


class ProtocolError(Exception):
    pass


class FrameReader:
    """Incremental parser of the byte stream; keeps only control payloads.

    `started` counts the frames whose first (header) byte has been consumed: since frames
    come in stream order, the client knows which frame a new start is before its header is
    complete, and so when each frame's first byte arrived."""

    def __init__(self):
        self.head = bytearray()
        self.index = None
        self.remaining = 0
        self.payload = None  # bytearray for control frames
        self.stream_bytes = 0
        self.started = 0

    def feed(self, data):
        """Consume `data`; yield (index, payload, send_ns, frame bytes) for each frame completed
        in it (payload: the bytes of a control frame, None for a video frame)."""
        pos, size = 0, len(data)
        self.stream_bytes += size
        while pos < size:
            if self.index is None:
                if not self.head:
                    self.started += 1
                take = min(HEADER.size - len(self.head), size - pos)
                self.head += data[pos : pos + take]
                pos += take
                if len(self.head) < HEADER.size:
                    break
                magic, index, length, send_ns, flags = HEADER.unpack(self.head)
                self.head.clear()
                if magic != MAGIC:
                    raise ProtocolError(f"bad frame magic {magic!r}: not a vprobe server?")
                control = bool(flags & FLAG_CONTROL)
                if control and length > MAX_CONTROL_PAYLOAD:
                    raise ProtocolError(f"control frame of {length} bytes")
                self.index, self.remaining, self.send_ns = index, length, send_ns
                self.length = HEADER.size + length
                self.payload = bytearray() if control else None
            take = min(self.remaining, size - pos)
            if self.payload is not None:
                self.payload += data[pos : pos + take]
            pos += take
            self.remaining -= take
            if self.remaining == 0:
                payload = bytes(self.payload) if self.payload is not None else None
                yield self.index, payload, self.send_ns, self.length
                self.index = None
                self.payload = None


def parse_control(payload, index):
    """The JSON object of a control frame; ProtocolError when it is not one (or, for the
    hello, not of this schema or without valid fps/frames)."""
    try:
        obj = json.loads(payload)
    except ValueError as e:
        raise ProtocolError(f"control frame {index:#x} is not JSON: {e}") from None
    if not isinstance(obj, dict):
        raise ProtocolError(f"control frame {index:#x} is not a JSON object")
    if index == HELLO_INDEX:
        if obj.get("schema") != SCHEMA:
            raise ProtocolError(f"server speaks {obj.get('schema')!r}, not {SCHEMA}")
        fps, frames = obj.get("fps"), obj.get("frames")
        if not isinstance(fps, int | float) or fps <= 0 or not isinstance(frames, int):
            raise ProtocolError("hello frame without valid fps/frames")
    return obj
