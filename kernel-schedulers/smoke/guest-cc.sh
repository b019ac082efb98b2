# Congestion control checks of the smoke-test guest, sourced by guest-init.sh (busybox sh) once
# its cli and srv namespaces and the three netem paths are up. Uses pass/fail/load_module of
# guest-lib.sh.
# The client sends (cc_xfer send in cli), the server receives (cc_xfer recv in srv), so the
# congestion control under test is the client's. Commands are started with /usr/sbin/ip, not
# guest-lib.sh's ip() function: a background function is a subshell, and killing it would
# leave its cc_xfer running.
#
# For each module of /mpqoe/ccs (mpqoe_<name>.ko registering "<name>"):
#  - plain insmod loads it (no symbol addresses needed) and it is listed as available;
#  - net.ipv4.tcp_congestion_control=<name> works in the non-init namespace cli, and then
#    * a plain TCP socket there gets it and carries data (Reno, not listed in /proc),
#    * an MPTCP connection there gets it on every subflow (one /proc line, >= 2 members);
#  - TCP_CONGESTION=<name> on an MPTCP socket (namespace default back to cubic) reaches every
#    subflow, including the joins created later: live /proc line with >= 2 usable members;
#  - the live line shows congestion-avoidance ACKs handled by the coupled arithmetic
#    (acks > ss_acks + reno_acks), window increases and losses;
#  - rmmod is refused while that connection runs and works once it is gone (closed line);
#  - /proc/net/mpqoe_<name>_samples: none for the namespace-default connection (samples=0 set
#    through sysfs before it), and for the TCP_CONGESTION one samples with >= 2 subflows' cwnd,
#    t_ns never decreasing; a samples value out of range is refused through sysfs.
# Then load/unload cycles of the modules in turn while connections asking for them (best
# effort) come and go and a long MPTCP transfer runs on cubic. A bad keep_closed, samples or
# sample_us at insmod is refused with its message. The kernel log is checked by guest-lib.sh's finish.
CC_CYCLES=${CC_CYCLES:-100}
# a small send buffer keeps a connection's end (drain) short over these 2 Mbit/s paths
SB="-S 131072"

# ccline <name> <state|any> <file>: the last /proc/net/mpqoe_<name> line of that state as
# "members usable acks ss_acks reno_acks increases losses"
ccline() {
	awk -v st="state=$2" '
		/^conn=/ && ($2 == st || st == "state=any") {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			line = v["members"] " " v["usable"] " " v["acks"] " " v["ss_acks"] " " \
				v["reno_acks"] " " v["increases"] " " v["losses"]
		}
		END { print line }' "$3"
}

# ccsamples <file> <conn>: the samples of that connection as "<lines> <lines listing >= 2
# subflows> <t_ns decreases> <events seen>"; t_ns compared as strings of digits (awk's doubles
# would round 19-digit nanoseconds)
ccsamples() {
	awk -v cn="conn=$2" '
		$1 == cn {
			n++
			t = substr($2, 6)
			if (n > 1 && (length(t) < length(last) || (length(t) == length(last) && t < last)))
				dec++
			last = t
			if ($0 ~ / cwnd=[0-9]+:[0-9]+,[0-9]/)
				multi++
			ev = substr($4, 4)
			if (!(ev in seen)) { seen[ev] = 1; evs = evs (evs == "" ? "" : ",") ev }
		}
		END { print n + 0 " " multi + 0 " " dec + 0 " " (evs == "" ? "none" : evs) }' "$1"
}

cc_refcnt() { cat /sys/module/mpqoe_$1/refcnt 2>/dev/null || echo gone; }

test_cc_module() {
	c=$1
	load_module "cc $c" "$c" /proc/sys/net/ipv4/tcp_available_congestion_control \
		insmod /mpqoe/mpqoe_$c.ko || return

	# 1. the namespace default of cli (a non-init namespace)
	/usr/sbin/ip netns exec cli sh -c "echo $c >/proc/sys/net/ipv4/tcp_congestion_control" 2>/tmp/e
	got=$(/usr/sbin/ip netns exec cli cat /proc/sys/net/ipv4/tcp_congestion_control)
	init=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
	if [ "$got" = "$c" ] && [ "$init" != "$c" ]; then
		pass "cc $c sysctl: net.ipv4.tcp_congestion_control=$c in netns cli (init netns: $init)"
	else
		fail "cc $c sysctl: cli has $got ($(cat /tmp/e)), init netns $init"
	fi
	/usr/sbin/ip netns exec srv cc_xfer recv 5100 >/tmp/r1.out 2>&1 &
	rpid=$!
	/usr/sbin/ip netns exec cli timeout 60 cc_xfer send $SB -B 400000 10.0.1.2 5100 >/tmp/s1.out 2>&1
	src=$?
	wait $rpid
	echo "  plain TCP: $(cat /tmp/s1.out) / $(cat /tmp/r1.out)"
	n=$(/usr/sbin/ip netns exec cli grep -c '^conn=' /proc/net/mpqoe_$c)
	if [ $src = 0 ] && grep -q "cc=$c " /tmp/s1.out && grep -q 'bytes=400000 ' /tmp/r1.out &&
		[ "$n" = 0 ]; then
		pass "cc $c plain TCP: namespace default $c, 400000 bytes delivered (Reno), not in /proc"
	else
		fail "cc $c plain TCP: rc=$src, $(cat /tmp/s1.out) / $(cat /tmp/r1.out), /proc lines=$n"
	fi
	sp=/sys/module/mpqoe_$c/parameters/samples
	echo 0 >$sp
	/usr/sbin/ip netns exec srv cc_xfer recv -m 5101 >/tmp/r2.out 2>&1 &
	rpid=$!
	/usr/sbin/ip netns exec cli timeout 60 cc_xfer send -m $SB -t 4 10.0.1.2 5101 >/tmp/s2.out 2>&1
	src=$?
	wait $rpid
	/usr/sbin/ip netns exec cli cat /proc/net/mpqoe_$c >/tmp/p2
	/usr/sbin/ip netns exec cli cat /proc/net/mpqoe_${c}_samples >/tmp/q2
	echo "  MPTCP, namespace default: $(cat /tmp/s2.out)"
	echo "  $(grep '^conn=' /tmp/p2 | tail -1)"
	set -- $(ccline $c any /tmp/p2)
	if [ $src = 0 ] && grep -q "cc=$c " /tmp/s2.out && [ "$(grep -c '^conn=' /tmp/p2)" = 1 ] &&
		[ "${3:-0}" -gt 0 ] && grep -q 'cwnd=[0-9]*:[0-9]*,[0-9]' /tmp/p2; then
		pass "cc $c MPTCP by namespace default: one connection, >= 2 subflows listed, acks=$3"
	else
		fail "cc $c MPTCP by namespace default: rc=$src $(grep '^conn=' /tmp/p2 | tail -1)"
	fi
	if [ "$(grep -c '^conn=' /tmp/q2)" = 0 ] && grep -q '^# mpqoe_.*_samples v1 samples=0 ' /tmp/q2 &&
		grep -q ' samples=0 samples_lost=0 ' /tmp/p2; then
		pass "cc $c samples=0: no sample listed ($(head -1 /tmp/q2))"
	else
		fail "cc $c samples=0: $(head -1 /tmp/q2), $(grep -c '^conn=' /tmp/q2) samples listed"
	fi
	if echo 4097 >$sp 2>/tmp/e; then
		fail "cc $c samples: 4097 accepted through sysfs"
	elif [ "$(cat $sp)" = 0 ] && dmesg | grep -q "mpqoe_$c: samples: \"4097\" refused"; then
		pass "cc $c samples: 4097 refused ($(tr '\n' ' ' </tmp/e)), still 0"
	else
		fail "cc $c samples: 4097 refused, but it is $(cat $sp) or no message in dmesg"
	fi
	echo 256 >$sp
	/usr/sbin/ip netns exec cli sh -c "echo cubic >/proc/sys/net/ipv4/tcp_congestion_control"
	/usr/sbin/ip netns exec cli sh -c "echo clear >/proc/net/mpqoe_$c"

	# 2. TCP_CONGESTION on the MPTCP socket, rmmod refused meanwhile; then the sender resets
	# the connection (no drain). The client's queues are cut to 40 packets meanwhile, so that
	# they overflow and the subflows reach congestion avoidance whatever the kernel's send
	# buffer lets into flight (7.x kernels kept less in flight than 200 packets of queue).
	for i in 1 2 3; do path_qdisc $i cli change 40; done
	/usr/sbin/ip netns exec srv cc_xfer recv -m 5102 >/tmp/r3.out 2>&1 &
	rpid=$!
	/usr/sbin/ip netns exec cli cc_xfer send -m -c $c -t 60 10.0.1.2 5102 >/tmp/s3.out 2>&1 &
	spid=$!
	i=0 # until the subflows left slow start, at most 20 s
	while [ $i -lt 20 ]; do
		sleep 1
		i=$((i + 1))
		/usr/sbin/ip netns exec cli cat /proc/net/mpqoe_$c >/tmp/p3
		set -- $(ccline $c live /tmp/p3)
		[ "${3:-0}" -gt $((${4:-0} + ${5:-0} + 50)) ] && break
	done
	echo "  live after $i s: $(grep '^conn=' /tmp/p3 | tail -1)"
	set -- $(ccline $c live /tmp/p3)
	if [ "${1:-0}" -ge 2 ] && [ "${2:-0}" -ge 2 ]; then
		pass "cc $c TCP_CONGESTION on the MPTCP socket: members=$1 usable=$2 (joins included)"
	else
		fail "cc $c TCP_CONGESTION on the MPTCP socket: members=${1:-none} usable=${2:-none}"
	fi
	if [ "${3:-0}" -gt $((${4:-0} + ${5:-0})) ] && [ "${6:-0}" -gt 0 ] && [ "${7:-0}" -gt 0 ]; then
		pass "cc $c coupled: acks=$3 ss_acks=$4 reno_acks=$5 increases=$6 losses=$7"
	else
		fail "cc $c coupled: acks=${3:-none} ss=${4:-} reno=${5:-} inc=${6:-} losses=${7:-}"
	fi
	/usr/sbin/ip netns exec cli cat /proc/net/mpqoe_${c}_samples >/tmp/q3
	cn=$(awk '/^conn=/ && $2 == "state=live" { c = substr($1, 6) } END { print c }' /tmp/p3)
	set -- $(ccsamples /tmp/q3 "${cn:-none}")
	echo "  samples of conn=$cn: $(grep -c "^conn=$cn " /tmp/q3), the last:" \
		"$(grep "^conn=$cn " /tmp/q3 | tail -1)"
	rm -f /tmp/q2 /tmp/q3
	# at most the ring (256): one dump ends even though the connection keeps sampling
	if [ "$1" -ge 2 ] && [ "$1" -le 256 ] && [ "$2" -ge 1 ] && [ "$3" = 0 ]; then
		pass "cc $c samples: $1 for conn=$cn, $2 listing >= 2 subflows, t_ns increasing, ev=$4"
	else
		fail "cc $c samples: conn=${cn:-none} lines=$1 multi=$2 t_ns decreases=$3 ev=$4"
	fi
	if rmmod mpqoe_$c 2>/tmp/rmmod.err; then
		fail "cc $c rmmod busy: succeeded while a connection used it"
	elif grep -qw "$c" /proc/sys/net/ipv4/tcp_available_congestion_control; then
		pass "cc $c rmmod busy: refused ($(tr '\n' ' ' </tmp/rmmod.err)), refcnt=$(cc_refcnt $c)"
	else
		fail "cc $c rmmod busy: refused but $c is gone"
	fi
	kill $spid
	wait $spid
	wait $rpid
	echo "  $(cat /tmp/s3.out) / $(cat /tmp/r3.out)"
	for i in 1 2 3; do path_qdisc $i cli change; done
	i=0 # the subflows are destroyed a little after the reset
	while [ "$(cc_refcnt $c)" != 0 ] && [ $i -lt 150 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	/usr/sbin/ip netns exec cli cat /proc/net/mpqoe_$c >/tmp/p4
	set -- $(ccline $c closed /tmp/p4)
	if grep -q "cc=$c " /tmp/s3.out && [ "${1:-1}" = 0 ]; then
		pass "cc $c closed: every member left (members=0, state=closed)"
	else
		fail "cc $c closed: $(grep '^conn=' /tmp/p4 | tail -1)"
	fi
	if rmmod mpqoe_$c 2>/tmp/rmmod.err; then
		pass "cc $c rmmod idle: unloaded after $((i / 5)).$((i % 5 * 2))s"
	else
		fail "cc $c rmmod idle: $(cat /tmp/rmmod.err) refcnt=$(cc_refcnt $c)"
	fi
}

# Load/unload cycles while connections come and go: a churn of short MPTCP transfers asking
# for the algorithm of the moment (refused while its module is out) and a long one on cubic.
test_cc_cycles() {
	ccs=$(cat /mpqoe/ccs)
	/usr/sbin/ip netns exec srv cc_xfer recv -m -n 1 5200 >/tmp/rl.out 2>&1 &
	rlpid=$!
	/usr/sbin/ip netns exec cli cc_xfer send -m -c cubic $SB -t 3600 10.0.1.2 5200 >/tmp/sl.out 2>&1 &
	slpid=$!
	/usr/sbin/ip netns exec srv cc_xfer recv -m -n 100000 5201 >/dev/null 2>&1 &
	rcpid=$!
	(
		while :; do
			for c in $ccs; do
				/usr/sbin/ip netns exec cli timeout 30 cc_xfer send -m -C $c $SB -B 30000 \
					10.0.1.2 5201
				sleep 0.3 # idle moments, so that an unload can happen
			done
		done
	) >/tmp/churn.out 2>&1 &
	chpid=$!
	sleep 1
	n=0
	busy=0
	t0=$(cut -d. -f1 /proc/uptime)
	while [ $n -lt "$CC_CYCLES" ]; do
		for c in $ccs; do
			[ $n -lt "$CC_CYCLES" ] || break
			insmod /mpqoe/mpqoe_$c.ko || break 2
			sleep 0.1
			i=0
			until rmmod mpqoe_$c 2>/dev/null; do
				i=$((i + 1))
				[ $i -lt 400 ] || break 3
				sleep 0.05
			done
			busy=$((busy + (i > 0)))
			n=$((n + 1))
			[ $((n % 25)) = 0 ] && echo "  cycle $n [$(cut -d' ' -f1 /proc/uptime)]"
		done
	done
	t1=$(cut -d. -f1 /proc/uptime)
	kill $chpid $slpid
	# the sender resets its connection on SIGTERM; nothing here may hang the guest
	i=0
	while { kill -0 $slpid || kill -0 $rlpid; } 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	for p in $slpid $rlpid; do
		if kill -0 $p 2>/dev/null; then
			echo "  pid $p still there after 10 s: $(tr '\0' ' ' </proc/$p/cmdline)" \
				"wchan=$(cat /proc/$p/wchan 2>/dev/null)"
			cat /proc/$p/stack 2>/dev/null | head -12
			kill -9 $p
		fi
	done
	kill $rcpid 2>/dev/null
	sleep 1
	used=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] == "connections") c += kv[2]; if (kv[1] == "cc_refused") r += kv[2] } }
		END { print c - r " " c }' /tmp/churn.out)
	echo "  long transfer: $(cat /tmp/sl.out) / $(cat /tmp/rl.out)"
	set -- $used
	if [ $n = "$CC_CYCLES" ] && [ "${1:-0}" -gt 0 ] && grep -q 'cc=cubic' /tmp/sl.out &&
		grep -q 'window_bytes=[1-9]' /tmp/rl.out; then
		pass "cc cycles: $n load/unload in $((t1 - t0)) s ($busy waited for a connection)," \
			"$1 of $2 churn connections got a module, cubic transfer ran throughout"
	else
		fail "cc cycles: $n of $CC_CYCLES cycles, churn with module ${1:-none}/${2:-none}," \
			"long: $(cat /tmp/sl.out) / $(cat /tmp/rl.out)"
		lsmod | grep mpqoe
		for c in $ccs; do /usr/sbin/ip netns exec cli cat /proc/net/mpqoe_$c 2>/dev/null | tail -3; done
	fi
}

test_cc_all() {
	c=$(cut -d' ' -f1 /mpqoe/ccs)
	if insmod /mpqoe/mpqoe_$c.ko keep_closed=16385 2>/dev/null; then
		fail "cc $c keep_closed at load: 16385 accepted"
		rmmod mpqoe_$c
	elif dmesg | grep -q "mpqoe_$c: keep_closed: \"16385\" refused"; then
		pass "cc $c keep_closed at load: 16385 refused ($(dmesg | grep -o 'refused: .*' | tail -1))"
	else
		fail "cc $c keep_closed at load: refused without the expected message"
	fi
	for p in samples=4097 sample_us=1000001; do
		if insmod /mpqoe/mpqoe_$c.ko $p 2>/dev/null; then
			fail "cc $c $p at load: accepted"
			rmmod mpqoe_$c
		elif dmesg | grep -q "mpqoe_$c: ${p%%=*}: \"${p#*=}\" refused"; then
			pass "cc $c $p at load: refused ($(dmesg | grep -o 'refused: .*' | tail -1))"
		else
			fail "cc $c $p at load: refused without the expected message"
		fi
	done
	for c in $(cat /mpqoe/ccs); do
		t0=$(cut -d. -f1 /proc/uptime)
		test_cc_module "$c"
		echo "  cc $c: $(($(cut -d. -f1 /proc/uptime) - t0)) s"
	done
	t0=$(cut -d. -f1 /proc/uptime)
	test_cc_cycles
	echo "  cc cycles: $(($(cut -d. -f1 /proc/uptime) - t0)) s"
}
