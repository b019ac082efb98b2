#!/usr/bin/env bash
# Real check of the Floodlight adapter with the user's Floodlight jar (as root, Mininet + OVS):
#   floodlight-module/floodlight/run-it.sh /path/to/floodlight.jar [floodlight_it.py options]
# Builds target/mpqoe-floodlight.jar (this module, never Floodlight) against that jar and runs its
# unit tests, the REST resource's tests, ShadedJarIT and the stand-in's conformance check against
# it when the jar is missing or older than the sources, then runs
# floodlight_it.py (Floodlight + mpqoe, Mininet CompuServe, one MPTCP
# transfer, checks). See docs/floodlight.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [[ $# -lt 1 || ! -f "$1" ]]; then
  echo "usage: $0 FLOODLIGHT_JAR [--keep] [--seed N] [--bytes N] [-v] ..." >&2
  exit 2
fi
fl="$(realpath "$1")"
shift
jar="$here/target/mpqoe-floodlight.jar"
if [[ ! -f "$jar" ]] || [[ -n "$(find "$root/floodlight-module" "$root/topologies" \
    \( -name '*.java' -o -name '*.json' -o -name '*.properties' -o -name pom.xml \) \
    -newer "$jar" -print -quit)" ]]; then
  echo "run-it: building and testing $jar ..." >&2
  (cd "$root" && mvn -q -B -Dstyle.color=never -Dfloodlight.jar="$fl" \
    -pl floodlight-module/floodlight-stub,floodlight-module/floodlight -am install >&2)
fi
exec /usr/bin/python3 "$here/floodlight_it.py" --floodlight-jar "$fl" --module-jar "$jar" "$@"
