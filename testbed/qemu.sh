# shellcheck shell=bash disable=SC2034  # QEMU_*: qemu_boot's results, read by the callers
# The one QEMU launcher of the project (sourced, bash): testbed/run boots the Debian testbed
# guest with it, kernel-schedulers/smoke/run.sh the busybox guests of the kernel smoke test and
# of the fairness experiment. It owns what every guest shares: the QEMU TCG command line, the
# timeout, booting again when the kernel dies before the guest's work began, the kernel console
# log and the kernel-trouble scan. A guest kind gives only what differs: kernel, initrd, kernel
# arguments, memory, vCPUs and its devices (disk, shares, network, more serial ports).
#
# The guest's part: its init writes the line "mpqoe-init: ready after <uptime> s" on its
# console (ttyS0) when its work begins. A boot that ends before that line (and before the
# --started file has content) died while booting: nothing of the work ran, so booting again is
# safe. A boot that ends after it is never booted again.
#
# Safe under set -e and pipefail (the callers differ).

QEMU_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The one list of kernel log lines that report trouble (docs/testbed.md), also copied into
# the guests that check their own kernel log.
QEMU_TROUBLE=$QEMU_DIR/kernel-trouble.ere
QEMU_READY='mpqoe-init: ready after'

qemu_pid="" qemu_watch_pid="" qemu_follow_pid="" qemu_log="" qemu_offset=0

# qemu_boot [options] -- QEMU-ARG...: boot the guest, again when a boot dies before its work
# began (at most --boots boots), all within --timeout seconds. The QEMU-ARGs are the guest
# kind's devices; the console is the first serial port, so a -serial among them is ttyS1.
#   --name NAME      prefix of the messages on stderr
#   --work WHAT      what the guest runs, for the messages (COMMAND, the checks)
#   --kernel FILE, --initrd FILE, --append ARGS   what to boot; ARGS beside console=ttyS0 ...
#   --mem MB, --smp N
#   --timeout SEC    then QEMU is killed, qemu_boot says so and returns 124
#   --log FILE       the console of every boot, written as it comes (emptied first); between
#                    two boots a line "NAME: boot N died before WHAT started; boot N+1 follows"
#   --started FILE   a file whose content also says that the work began (an exit code, a
#                    verdict), should the ready line be lost
#   --follow FUNC    FUNC reads each boot's console on its stdin while the guest runs
#   --output FILE    QEMU's own stdout and stderr go there (emptied first), not to this shell's
#   --boots N        3
# Returns 0 when the guest ended, 124 on timeout. Sets QEMU_STARTED (1: the last boot began
# its work), QEMU_READY_S (the guest's uptime at its ready line, empty if none) and
# QEMU_SECONDS (wall time of all boots, one decimal). The caller's EXIT trap calls qemu_stop.
qemu_boot() {
	local name=qemu work="its work" kernel="" initrd="" append="" mem=1024 smp=2 timeout=3600
	local log="" started="" follow="" output="" boots=3
	while (($#)); do
		case $1 in
		--) shift && break ;;
		--name) name=$2 ;;
		--work) work=$2 ;;
		--kernel) kernel=$2 ;;
		--initrd) initrd=$2 ;;
		--append) append=$2 ;;
		--mem) mem=$2 ;;
		--smp) smp=$2 ;;
		--timeout) timeout=$2 ;;
		--log) log=$2 ;;
		--started) started=$2 ;;
		--follow) follow=$2 ;;
		--output) output=$2 ;;
		--boots) boots=$2 ;;
		*) echo "qemu_boot: unknown option '$1'" >&2 && return 2 ;;
		esac
		shift 2
	done
	if [[ -z $kernel || -z $log ]]; then
		echo "qemu_boot: --kernel and --log are needed" >&2
		return 2
	fi
	# -cx16: without CMPXCHG16B the kernel's per-CPU 128-bit compare-and-exchange (the slab
	# allocator's fast path) runs its emulation with interrupts off instead of the instruction;
	# the guest panics met in long video runs all struck right after that instruction under
	# multi-threaded TCG (docs/video-experiments.md). MPQOE_QEMU_CPU overrides the model.
	# panic=-1 with -no-reboot: a kernel that dies ends QEMU. The console is appended to the
	# log (append=on), so that it keeps every boot's.
	# shellcheck disable=SC2054  # QEMU's options are comma lists
	local qemu=(
		qemu-system-x86_64
		-accel tcg,thread=multi -cpu "${MPQOE_QEMU_CPU:-qemu64,-cx16}" -smp "$smp" -m "$mem"
		-nodefaults -no-user-config -display none -no-reboot
		-kernel "$kernel" ${initrd:+-initrd "$initrd"}
		-append "console=ttyS0 panic=-1 quiet loglevel=4${append:+ $append}"
		-chardev "file,id=con,path=${log//,/,,},append=on" -serial chardev:con
		"$@"
	)
	local attempt why t0=$EPOCHREALTIME
	qemu_log=$log qemu_offset=0 QEMU_STARTED=0 QEMU_READY_S="" QEMU_SECONDS=""
	: >"$log"
	[[ -z $output ]] || : >"$output"
	# --pdeathsig: QEMU and this watchdog die with the shell even when it is SIGKILLed.
	setpriv --pdeathsig KILL -- sleep "$timeout" &
	qemu_watch_pid=$!
	for ((attempt = 1; ; attempt++)); do
		qemu_offset=$(stat -c %s "$log")
		if [[ -n $output ]]; then
			setpriv --pdeathsig KILL -- "${qemu[@]}" </dev/null >>"$output" 2>&1 &
		else
			setpriv --pdeathsig KILL -- "${qemu[@]}" </dev/null &
		fi
		qemu_pid=$!
		if [[ -n $follow ]]; then
			tail -c +$((qemu_offset + 1)) -f --pid "$qemu_pid" "$log" | "$follow" &
			qemu_follow_pid=$!
		fi
		wait -n "$qemu_pid" "$qemu_watch_pid" || true
		if ! kill -0 "$qemu_watch_pid" 2>/dev/null && kill -0 "$qemu_pid" 2>/dev/null; then
			qemu_stop
			echo "$name: timeout after $timeout s, guest killed" >&2
			return 124
		fi
		qemu_pid=""
		# what the follower has not shown yet: tail sees QEMU's end within a second
		[[ -z $qemu_follow_pid ]] || wait "$qemu_follow_pid" || true
		qemu_follow_pid=""
		if grep -q "$QEMU_READY" < <(qemu_console) || [[ -n $started && -s $started ]]; then
			QEMU_STARTED=1
			break
		fi
		((attempt < boots)) || break
		why=$(grep -m1 -E -f "$QEMU_TROUBLE" < <(qemu_console) | tr -d '\r') || true
		echo "$name: the guest died before $work started (${why:-no kernel message});" \
			"booting again ($((attempt + 1)) of $boots)" >&2
		# on a line of its own, also when the kernel died in the middle of one
		[[ -z $(tail -c 1 "$log") ]] || echo >>"$log"
		echo "$name: boot $attempt died before $work started; boot $((attempt + 1)) follows" >>"$log"
	done
	kill "$qemu_watch_pid" 2>/dev/null || true
	qemu_watch_pid=""
	QEMU_SECONDS=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	QEMU_READY_S=$(sed -n "s/.*$QEMU_READY \([0-9.]*\) s.*/\1/p;T;q" < <(qemu_console))
	return 0
}

# The console of the last boot (of qemu_boot's --log).
qemu_console() {
	tail -c +$((qemu_offset + 1)) "$qemu_log"
}

# Stop what qemu_boot left running: QEMU (TERM, then KILL), its watchdog and its follower.
qemu_stop() {
	local sig
	for sig in TERM KILL; do
		if [[ -z $qemu_pid ]] || ! kill -0 "$qemu_pid" 2>/dev/null; then
			break
		fi
		kill "-$sig" "$qemu_pid" 2>/dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$qemu_pid" 2>/dev/null || break
			sleep 0.2
		done
	done
	[[ -z $qemu_watch_pid ]] || kill "$qemu_watch_pid" 2>/dev/null || true
	[[ -z $qemu_follow_pid ]] || kill "$qemu_follow_pid" 2>/dev/null || true
	qemu_pid="" qemu_watch_pid="" qemu_follow_pid=""
}
