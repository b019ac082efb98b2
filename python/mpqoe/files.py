"""Atomic file writes: readers see the old file or the whole new one, never a part."""

import contextlib
import json
import os
import secrets


def write_atomic(path, data):
    """Writes data (str or bytes) to path through a temporary file in the same directory,
    fsync and rename; creates the directory. The file gets the usual mode (0666 less the
    umask). On failure the temporary file is removed and path is left as it was."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    binary = isinstance(data, bytes | bytearray)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def json_text(doc, indent=1, sort_keys=True):
    """The JSON text the project writes: indented, one trailing newline."""
    return json.dumps(doc, indent=indent, sort_keys=sort_keys) + "\n"


def write_json(path, doc, indent=1, sort_keys=True):
    """Writes doc to path atomically as indented JSON."""
    write_atomic(path, json_text(doc, indent=indent, sort_keys=sort_keys))


def read_json(path):
    """The JSON document at path, or None when it is missing or unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
