#!/bin/bash
# Smoke test of the mpqoe scheduler modules in the stock Debian kernel they were built for,
# booted under QEMU TCG (no KVM) with a minimal initramfs built here: busybox, iproute2's ip and
# tc with their libraries, veth and sch_netem from the image package, the modules, mpqoe-load
# and a static MPTCP transfer tool. The guest runs guest-init.sh and prints PASS/FAIL lines, on its console
# and on a second serial port that carries nothing else; the verdict is read from the second.
# QEMU is started by testbed/qemu.sh, the launcher the testbed guest uses too: a kernel that
# dies before the checks start is booted again (up to 3 boots), the timeout covers all boots.
#
#   smoke/run.sh --modules DIR [--kernel SPEC] [--schedulers "dft gr_sty ..."] [--ccs "lia ..."]
#                [--timeout SEC] [--init FILE] [--extra FILE]... [--save FILE]
#   smoke/run.sh --deps-only [--kernel SPEC]
#
# --kernel: the kernel to boot (../kmod/debian-kernel: SERIES[+debN], a Debian version); by
# default the one DIR/kernel.txt says the modules were built for (else debian-kernel's default).
# --ccs: the congestion control modules mpqoe_<name>.ko tested after the schedulers
# (guest-cc.sh); either list may be empty. --init replaces guest-init.sh as the guest's /init
# (the congestion control fairness experiment uses this; like guest-init.sh it sources
# /mpqoe/guest-lib.sh first, whose ready line the launcher waits for); --extra copies a file
# to /mpqoe/ in the guest; --save keeps everything the guest wrote on the second serial port.
# --deps-only installs the host tools and unpacks the kernel image into the cache, then exits
# (what the fairness experiment's node check wants, without a guest).
#
# Exit 0 when every check passed, 1 on any failure (or a guest that did not finish), 2 on bad
# usage. The guest's console log and a summary go to DIR/../smoke/ (summary written atomically;
# marked partial when the guest did not finish). QEMU is always killed on exit.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# the one QEMU launcher, shared with the testbed guest
source "$here/../../testbed/qemu.sh"
kernel=
modules=
schedulers="dft minrtt gr_sty tp_sty tr_sty bnaware daps"
ccs="lia olia balia"
timeout=900
init=$here/guest-init.sh
extras=()
save=
deps_only=0

usage() {
	echo "usage: $0 --modules DIR [--kernel SPEC] [--schedulers LIST] [--ccs LIST]" \
		"[--timeout SEC] [--init FILE] [--extra FILE]... [--save FILE] | --deps-only [--kernel SPEC]" >&2
	exit 2
}
while [[ $# -gt 0 ]]; do
	case $1 in
	--modules) modules=${2:-}; shift 2 || usage ;;
	--kernel) kernel=${2:-}; shift 2 || usage ;;
	--schedulers) schedulers=${2-}; shift 2 || usage ;;
	--ccs) ccs=${2-}; shift 2 || usage ;;
	--init) init=${2:-}; shift 2 || usage ;;
	--extra) extras+=("${2:-}"); shift 2 || usage ;;
	--save) save=${2:-}; shift 2 || usage ;;
	--timeout) timeout=${2:-}; shift 2 || usage ;;
	--deps-only) deps_only=1 && shift ;;
	*) usage ;;
	esac
done
if ((!deps_only)); then
	[[ -n $modules && -d $modules && $timeout =~ ^[1-9][0-9]*$ ]] || usage
	for s in $schedulers; do
		[[ -f $modules/mpqoe_$s.ko ]] || { echo "smoke: $modules/mpqoe_$s.ko missing" >&2; exit 2; }
	done
	for c in $ccs; do
		[[ -f $modules/mpqoe_$c.ko ]] || { echo "smoke: $modules/mpqoe_$c.ko missing" >&2; exit 2; }
	done
	[[ -z $schedulers || -x $modules/mpqoe-load ]] ||
		{ echo "smoke: $modules/mpqoe-load missing" >&2; exit 2; }
	[[ -f $init ]] || { echo "smoke: $init missing" >&2; exit 2; }
	for f in "${extras[@]}"; do
		[[ -f $f ]] || { echo "smoke: $f missing" >&2; exit 2; }
	done
fi

t_start=$(date +%s)
missing=
for t in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static ip:iproute2 tc:iproute2 \
	cpio:cpio xz:xz-utils gcc:gcc; do
	command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
# a static busybox: the dynamic one of package "busybox" would need its libraries too
if command -v busybox >/dev/null && ldd "$(command -v busybox)" >/dev/null 2>&1; then
	missing="$missing busybox-static"
fi
if [[ -n $missing ]]; then
	echo "smoke: installing$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
if [[ -z $kernel && -n $modules && -f $modules/kernel.txt ]]; then
	kernel=$(sed -n 's/^debian=//p' "$modules/kernel.txt")
fi
kinfo=$("$here/../kmod/debian-kernel" resolve "$kernel") || exit 2
eval "$kinfo"
"$here/../kmod/debian-kernel" fetch "$KDEBVER" image
if ((deps_only)); then
	echo "smoke: host tools and the kernel image ($KCACHE/image) are in place"
	exit 0
fi
if [[ -f $modules/kernel.txt ]] && ! grep -qx "kernel=$KVER" "$modules/kernel.txt"; then
	echo "smoke: $modules were built for $(sed -n 's/^kernel=//p' "$modules/kernel.txt"), not $KVER" >&2
	exit 2
fi
image=$KCACHE/image
kmods=$image/lib/modules/$KVER/kernel

out=$(cd "$modules/.." && pwd)/smoke
mkdir -p "$out"
work=$(mktemp -d /tmp/mpqoe-smoke.XXXXXX)
cleanup() {
	qemu_stop
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- initramfs ---
root=$work/root
mkdir -p "$root"/{bin,sbin,lib/mod,mpqoe,proc,sys,dev,tmp,run,etc}
cp "$(command -v busybox)" "$root/bin/busybox"
for a in $("$root/bin/busybox" --list); do
	[[ $a == ip || $a == tc || $a == busybox ]] || ln -sf busybox "$root/bin/$a"
done
copy_with_libs() { # an executable and every library it links, at their own paths
	local exe=$1 lib
	mkdir -p "$root/usr/sbin"
	cp "$exe" "$root/usr/sbin/"
	for lib in $(ldd "$exe" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_with_libs "$(command -v ip)"
copy_with_libs "$(command -v tc)"
for m in veth sch_netem; do
	xz -dc "$(find -L "$kmods" -name "$m.ko.xz" | head -1)" >"$root/lib/mod/$m.ko"
done
for s in $schedulers; do
	strip --strip-debug -o "$root/mpqoe/mpqoe_$s.ko" "$modules/mpqoe_$s.ko"
done
for c in $ccs; do
	strip --strip-debug -o "$root/mpqoe/mpqoe_$c.ko" "$modules/mpqoe_$c.ko"
done
echo "$schedulers" >"$root/mpqoe/schedulers"
echo "$ccs" >"$root/mpqoe/ccs"
[[ -z $schedulers ]] || cp "$modules/mpqoe-load" "$root/mpqoe/"
cp "$here/guest-lib.sh" "$here/guest-cc.sh" "${extras[@]}" "$root/mpqoe/"
gcc -static -O2 -Wall -Wextra -Werror -o "$root/sbin/mptcp_xfer" "$here/mptcp_xfer.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$root/sbin/cc_xfer" "$here/cc_xfer.c"
cp "$init" "$root/init"
# the one list of kernel log lines that report trouble, checked by the guest in its own log
cp "$QEMU_TROUBLE" "$root/kernel-trouble.ere"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
t_built=$(date +%s)

# --- boot ---
log=$out/console.log
verdicts=$work/verdicts
: >"$verdicts" # read below even when no boot opened it
echo "smoke: booting $KVER under QEMU TCG for: $schedulers${ccs:+ / cc: $ccs} (log: $log)"
clean_log() { tr -d '\r' | sed -uE 's/\x1b(\[[0-9;?]*[A-Za-z]|c)//g'; } # CRs, terminal resets
# the verdict lines and their details, shown while the guest runs
show_verdicts() { clean_log | grep --line-buffered -E '^(PASS|FAIL|SMOKE-DONE|  )'; }
# ttyS1 (the second serial port) carries the verdict lines and nothing else; the verdict is
# read there. A timeout leaves the summary partial: the guest did not finish.
qemu_boot --name smoke --work "the checks" --mem 768 --smp 2 --timeout "$timeout" \
	--kernel "$image/boot/vmlinuz-$KVER" --initrd "$work/initrd.gz" \
	--log "$log" --started "$verdicts" --follow show_verdicts --output "$work/qemu.out" -- \
	-serial "file:$verdicts" || true
t_end=$(date +%s)

# --- verdict ---
clean_log <"$log" >"$work/log"
cat "$work/qemu.out" >>"$work/log"
clean_log <"$verdicts" >"$work/verdict"
if [[ -n $save ]]; then
	cp "$work/verdict" "$save.tmp" && mv "$save.tmp" "$save"
fi
npass=$(grep -c '^PASS ' "$work/verdict" || true)
nfail=$(grep -c '^FAIL ' "$work/verdict" || true)
status=complete
# the guest's own tally must agree with the lines seen here; a PASS line lost on the serial
# line is said, not taken for a failure (the guest counted it passed), a lost FAIL line is
read -r gpass gfail < <(sed -nE 's/^SMOKE-DONE pass=([0-9]+) fail=([0-9]+)$/\1 \2/p' \
	"$work/verdict" | tail -1) || true
if [[ -z $gpass || $gfail -ne $nfail || $gpass -lt $npass ]]; then
	status=partial
elif [[ $gpass -ne $npass ]]; then
	echo "smoke: $((gpass - npass)) PASS line(s) of the guest's $gpass did not arrive" >&2
fi
{
	echo "kernel=$KVER debian=$KDEBVER schedulers=\"$schedulers\" ccs=\"$ccs\" status=$status pass=$npass fail=$nfail"
	echo "seconds: prepare=$((t_built - t_start)) guest=$((t_end - t_built)) total=$((t_end - t_start))"
	grep -E '^(PASS|FAIL) ' "$work/verdict" || true
} >"$out/result.txt.tmp"
mv "$out/result.txt.tmp" "$out/result.txt"
echo "smoke: $status, $npass passed, $nfail failed; prepare $((t_built - t_start)) s," \
	"guest $((t_end - t_built)) s, total $((t_end - t_start)) s"
if [[ $status != complete ]]; then
	echo "smoke: the guest did not finish (timeout or crash), last lines:" >&2
	tail -30 "$work/log" >&2
	exit 1
fi
[[ $nfail -eq 0 ]]
