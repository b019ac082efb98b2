"""What the DASH harness's Python commands (dashjs-harness/) share: paths, the usage-error
convention, atomic writes (mpqoe.files).

Every command reports bad flags or input as one line `prog: message` on stderr with exit code 2
(UsageError, also raised by Parser instead of argparse's own exit), and other failures as one
line with the Failure's exit_code (1 unless a subclass says otherwise).
"""

import argparse
import json
import os
import sys

from mpqoe import REPO, files

HOME = os.path.join(REPO, "dashjs-harness")

RUN = os.path.join(HOME, "run")
# The player profiles (which dash.js build, which settings): the runner, the player page, the
# server and the video experiments all read this one file (docs/dashjs-harness.md).
PLAYERS_FILE = os.path.join(HOME, "player", "players.json")
# Debian's interpreter when there is one (Mininet's Python package lives there)
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class UsageError(Exception):
    """Bad flags or input: exit code 2, nothing changed."""


class Failure(Exception):
    """The command could not do its work; exit_code says how it ends."""

    exit_code = 1


class Unavailable(Failure):
    """A tool or kernel feature the command needs is missing: one line saying what to install
    or enable, exit code 2 like a usage error, nothing changed."""

    exit_code = 2


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError instead of printing usage and exiting."""

    def error(self, message):
        raise UsageError(message)


def run_main(prog, body, argv=None):
    """Runs body(argv) and returns its exit code; UsageError and Failure become one stderr line
    `prog: message` and exit code 2, or the Failure's exit_code."""
    try:
        return body(argv)
    except UsageError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    except Failure as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return e.exit_code


def write_json_atomic(path, obj, indent=2):
    """Writes obj as JSON to path through a temporary file and a rename: readers see the old
    file or the whole new one."""
    files.write_json(path, obj, indent=indent, sort_keys=False)


def players():
    """The player profiles file: {"default": NAME, "players": {NAME: profile}}."""
    with open(PLAYERS_FILE, encoding="utf-8") as f:
        return json.load(f)


def player_build(name):
    """The directory holding profile NAME's dash.js build (UsageError for an unknown name)."""
    known = players()["players"]
    if name not in known:
        raise UsageError(f"unknown player {name!r} (one of {', '.join(sorted(known))})")
    return os.path.join(HOME, known[name]["build"])
