# What every /init of the kernel smoke guests (busybox sh, booted by smoke/run.sh) does first,
# sourced as /mpqoe/guest-lib.sh by guest-init.sh here and ../cc-fairness/guest-init.sh:
# mounts, the ready line the launcher waits for (testbed/qemu.sh), the verdict lines, the
# kernel's own modules of /lib/mod (veth, sch_netem) loaded.
# One "PASS|FAIL <what>: detail" line per check and "SMOKE-DONE pass=N fail=M" at the end
# (finish). These lines go to the console (ttyS0, for the reader) and to ttyS1, which only they
# reach: a kernel message written to the console in the middle of a line cannot change the
# verdict.
export PATH=/sbin:/bin
# busybox sh runs its own applets first (ip, tc): iproute2's are called by their full path.
ip() { /usr/sbin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp /run/netns /var
mount -t tmpfs tmp /tmp
ln -s /run /var/run
echo 1 >/proc/sys/kernel/printk_ratelimit 2>/dev/null
# from here on the guest's work has begun: a kernel that dies later is not booted again
echo "mpqoe-init: ready after $(cut -d' ' -f1 /proc/uptime) s"

npass=0
nfail=0
# ttyS1 stays open for the whole run (fd 3): opened and closed for every line, a line now and
# then did not reach the host
exec 3>/dev/ttyS1
verdict() {
	echo "$*"
	echo "$*" >&3
}
pass() {
	verdict "PASS $*"
	npass=$((npass + 1))
}
fail() {
	verdict "FAIL $*"
	nfail=$((nfail + 1))
}
finish() {
	if dmesg | grep -E -f /kernel-trouble.ere >/tmp/dmesg.bad; then
		fail "kernel log: $(head -3 /tmp/dmesg.bad | tr '\n' ' ')"
		dmesg | tail -60
	else
		pass "kernel log: nothing of /kernel-trouble.ere"
	fi
	verdict "SMOKE-DONE pass=$npass fail=$nfail"
	poweroff -f
}

# load_module <label> <name> <file listing the available names> <loader> [arg...]: one check,
# that the loader loads the module and that its name is then listed; 1 when it did not load
load_module() {
	local label="$1" name="$2" list="$3"
	shift 3
	if ! "$@" 2>/tmp/load.err; then
		fail "$label load: ${1##*/} failed: $(tr '\n' ' ' </tmp/load.err)$(dmesg | tail -2 | tr '\n' ' ')"
		return 1
	fi
	if grep -qw "$name" "$list"; then
		pass "$label load: in ${list##*/} ($(cat "$list"))"
	else
		fail "$label load: not in ${list##*/}"
	fi
}

for m in /lib/mod/*.ko; do
	insmod "$m" || { fail "setup: insmod $m"; finish; }
done
