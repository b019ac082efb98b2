#!/usr/bin/env bash
# The testbed's CI smoke test (make -C testbed smoke): the standalone controller runs on the
# host (bin/mpqoe controller, topology three-path) and testbed/smoke/smoke.py runs in the guest,
# whose Open vSwitch reaches it at 10.0.2.2 (QEMU user networking). Without the controller's
# jar (make build) the controller part is skipped, loudly.
#   testbed/smoke/run-smoke.sh [--port N] [--timeout SEC]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
port=16653 timeout=600
while (($#)); do
	case $1 in
	--port) [[ ${2-} =~ ^[0-9]{1,5}$ ]] || { echo "run-smoke: --port wants a number" >&2; exit 2; }; port=$2; shift 2 ;;
	--timeout) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || { echo "run-smoke: --timeout wants seconds" >&2; exit 2; }; timeout=$2; shift 2 ;;
	*) echo "usage: $0 [--port N] [--timeout SEC]" >&2; exit 2 ;;
	esac
done

ctl_pid="" log=$(mktemp "${TMPDIR:-/tmp}/mpqoe-smoke-ctl.XXXXXX")
stop() {
	# The controller ends by SIGTERM (status 143): that must not become this script's status.
	if [[ -n $ctl_pid ]]; then
		kill "$ctl_pid" 2>/dev/null || true
		wait "$ctl_pid" 2>/dev/null || true
	fi
	rm -f "$log"
}
trap stop EXIT
args=()
if [[ -f $repo/floodlight-module/cli/target/mpqoe.jar ]]; then
	# Port 0 for REST is not offered; take the OpenFlow port + 1.
	"$repo/bin/mpqoe" controller -t three-path --bind 127.0.0.1 --port "$port" \
		--rest $((port + 1)) >"$log" 2>&1 &
	ctl_pid=$!
	for _ in $(seq 60); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		kill -0 "$ctl_pid" 2>/dev/null || { cat "$log" >&2; echo "run-smoke: controller exited" >&2; exit 1; }
		sleep 0.5
	done
	args=(--controller "10.0.2.2:$port")
else
	echo "run-smoke: SKIPPED the controller part: no floodlight-module/cli/target/mpqoe.jar (make build)" >&2
fi
rc=0
"$repo/testbed/run" --timeout "$timeout" -- /usr/bin/python3 testbed/smoke/smoke.py "${args[@]}" || rc=$?
if ((rc != 0)) && [[ -n $ctl_pid ]]; then
	echo "run-smoke: controller log (last 30 lines):" >&2
	tail -30 "$log" >&2
fi
exit "$rc"
