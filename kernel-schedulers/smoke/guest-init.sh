#!/bin/sh
# /init of the smoke-test guest (busybox sh, Debian's 6.12 kernel under QEMU TCG).
#
# Two namespaces, cli and srv, joined by three veth pairs shaped with netem (RTT 50, 100,
# 100 ms, 2 Mbit/s each way). The client has one "subflow" endpoint bound to each of its 2nd
# and 3rd interfaces (in-kernel path manager), so every connection to the server's first
# address gets three subflows, one per path.
# For each scheduler module listed in /mpqoe/schedulers: load it (mpqoe-load), check
# available_schedulers, select it in both namespaces, send $BYTES from srv to cli and check
# its counters, then check that rmmod is refused while a connection uses it and succeeds once
# idle. For the first module also the /proc reader with many closed connections (test_proc).
# Then the congestion control modules listed in /mpqoe/ccs (guest-cc.sh).
# One "PASS|FAIL <scheduler> <check>: detail" line per check, "SMOKE-DONE" at the end
# (guest-lib.sh).
. /mpqoe/guest-lib.sh
BYTES=${BYTES:-1500000}

# netem of path $1 in namespace $2 (cli or srv): one-way delay 25 ms on path 1, 50 ms on paths
# 2 and 3 (RTT 50 and 100 ms), 2 Mbit/s, a queue of $4 packets (default 200); $3: add|change
path_qdisc() {
	d=50
	[ $1 = 1 ] && d=25
	tc -n $2 qdisc $3 dev ${2%${2#?}}$1 root netem delay ${d}ms rate 2mbit limit ${4:-200}
}

# ip and tc, not Mininet: the busybox initramfs has no Python and no Open vSwitch.
setup_net() {
	ip netns add cli && ip netns add srv || return 1
	for i in 1 2 3; do
		ip link add c$i netns cli type veth peer name s$i netns srv || return 1
		ip -n cli addr add 10.0.$i.1/24 dev c$i && ip -n srv addr add 10.0.$i.2/24 dev s$i &&
			ip -n cli link set c$i up && ip -n srv link set s$i up || return 1
		path_qdisc $i cli add && path_qdisc $i srv add || return 1
	done
	ip -n cli link set lo up && ip -n srv link set lo up &&
		ip -n srv mptcp limits set subflows 2 add_addr_accepted 0 &&
		ip -n cli mptcp limits set subflows 2 add_addr_accepted 0 &&
		ip -n cli mptcp endpoint add 10.0.2.1 dev c2 subflow &&
		ip -n cli mptcp endpoint add 10.0.3.1 dev c3 subflow
}
setup_net || { fail "setup: namespaces, veth, netem, mptcp endpoints"; finish; }
ip netns exec cli ping -c 1 -W 2 10.0.2.2 >/dev/null && pass "setup: namespaces, 3 netem paths" ||
	fail "setup: ping over path 2"

# counters <scheduler> <state>: the last /proc/net/mpqoe_<s> line of the server with that state,
# as "decisions switches n_subflows_with_bytes room_limited"
counters() {
	ip netns exec srv cat /proc/net/mpqoe_$1 2>/dev/null | awk -v st="state=$2" '
		$2 == st {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			n = split(v["bytes"], b, ","); used = 0
			for (j = 1; j <= n; j++) { split(b[j], ib, ":"); if (ib[2] + 0 > 0) used++ }
			line = v["decisions"] " " v["switches"] " " used " " v["room_limited"]
		}
		END { print line }'
}

refcnt() { cat /sys/module/mpqoe_$1/refcnt 2>/dev/null || echo gone; }

# ordered <file>: exit 0 when its conn= serial numbers strictly increase (none shown twice)
ordered() {
	awk '/^conn=/ { split($1, kv, "="); if (kv[2] + 0 <= last) bad = 1; last = kv[2] + 0 }
		END { exit bad }' "$1"
}

# The /proc reader with more closed connections than one seq_file page holds (4 KB), read
# whole and in 100-byte reads, and read again and again in 64-byte reads while connections
# are created, closed and dropped; keep_closed refuses an out-of-range value and a lowered
# value applies at once.
test_proc() {
	s=$1
	p=/sys/module/mpqoe_$s/parameters/keep_closed
	f=/proc/net/mpqoe_$s
	old=$(cat $p)
	if echo 99999 >$p 2>/tmp/kc.err; then
		fail "$s keep_closed: 99999 accepted"
	elif [ "$(cat $p)" = "$old" ] && dmesg | grep -q 'keep_closed: "99999" refused'; then
		pass "$s keep_closed: 99999 refused ($(tr '\n' ' ' </tmp/kc.err)), still $old"
	else
		fail "$s keep_closed: 99999 refused, but it is $(cat $p) or no message in dmesg"
	fi

	echo 40 >$p
	# only the server's side uses the module: its 48 connections are the newest closed ones
	ip netns exec cli sh -c "echo default >/proc/sys/net/mptcp/scheduler"
	timeout 180 /usr/sbin/ip netns exec srv mptcp_xfer server 5002 2000 48 >/tmp/msrv.out 2>&1 &
	mspid=$!
	(
		n=0
		bad=0
		while kill -0 $mspid 2>/dev/null; do
			ip netns exec srv dd if=$f of=/tmp/rd bs=64 2>/dev/null
			ordered /tmp/rd || bad=$((bad + 1))
			n=$((n + 1))
		done
		echo "$n $bad" >/tmp/reader.out
	) &
	rpid=$!
	timeout 180 /usr/sbin/ip netns exec cli mptcp_xfer client 10.0.1.2 5002 48 >/tmp/mcli.out 2>&1
	wait $mspid
	wait $rpid
	ip netns exec cli sh -c "echo $s >/proc/sys/net/mptcp/scheduler"
	echo "  $(cat /tmp/msrv.out) / $(cat /tmp/mcli.out) [$(cut -d' ' -f1 /proc/uptime)]"
	set -- $(cat /tmp/reader.out)
	if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" = 0 ]; then
		pass "$s proc under churn: $1 reads in 64-byte pieces, conn= always increasing"
	else
		fail "$s proc under churn: reads=${1:-none}, out of order=${2:-none}"
	fi

	i=0 # the last server connection is released a little after the client is done
	while [ "$(ip netns exec srv cat $f | grep -c 'state=closed')" -lt 40 ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	ip netns exec srv cat $f >/tmp/whole
	ip netns exec srv dd if=$f of=/tmp/pieces bs=100 2>/dev/null
	nclosed=$(grep -c 'state=closed' /tmp/whole)
	size=$(wc -c </tmp/whole)
	if [ "$nclosed" = 40 ] && [ "$size" -gt 4096 ] && ordered /tmp/whole &&
		cmp -s /tmp/whole /tmp/pieces; then
		pass "$s proc pages: $nclosed closed kept of 48+, $size bytes, same in 100-byte reads"
	else
		fail "$s proc pages: closed=$nclosed bytes=$size ordered=$(ordered /tmp/whole &&
			echo yes || echo no) same_in_pieces=$(cmp -s /tmp/whole /tmp/pieces &&
			echo yes || echo no)"
	fi

	echo 10 >$p
	nclosed=$(ip netns exec srv cat $f | grep -c 'state=closed')
	[ "$nclosed" = 10 ] && pass "$s keep_closed lowered: 10 closed kept at once" ||
		fail "$s keep_closed lowered to 10: $nclosed closed listed"
	echo "$old" >$p
}

test_module() {
	s=$1
	load_module "$s" "$s" /proc/sys/net/mptcp/available_schedulers \
		/mpqoe/mpqoe-load /mpqoe/mpqoe_$s.ko || return
	for ns in cli srv; do
		ip netns exec $ns sh -c "echo $s >/proc/sys/net/mptcp/scheduler"
	done
	if [ "$(ip netns exec srv cat /proc/sys/net/mptcp/scheduler)" = "$s" ]; then
		pass "$s select: net.mptcp.scheduler=$s"
	else
		fail "$s select: net.mptcp.scheduler is $(ip netns exec srv cat /proc/sys/net/mptcp/scheduler)"
	fi

	# 1. a transfer: data over >= 2 subflows, non-zero counters after close
	/usr/sbin/ip netns exec srv mptcp_xfer server 5000 $BYTES >/tmp/srv.out 2>&1 &
	spid=$!
	timeout 60 /usr/sbin/ip netns exec cli mptcp_xfer client 10.0.1.2 5000 >/tmp/cli.out 2>&1
	crc=$?
	wait $spid
	src=$?
	echo "  $(cat /tmp/srv.out) / $(cat /tmp/cli.out)"
	if [ $crc = 0 ] && [ $src = 0 ] && grep -q "bytes=$BYTES " /tmp/cli.out; then
		pass "$s transfer: $BYTES bytes"
	else
		fail "$s transfer: client rc=$crc server rc=$src"
	fi
	for ns in cli srv; do # the non-zero MPTCP MIB counters, for diagnosis
		echo "  $ns: $(ip netns exec $ns cat /proc/net/netstat | awk '/^MPTcpExt/ {
			if (!h) { split($0, k); h = 1; next }
			for (i = 2; i <= NF; i++) if ($i != 0) printf "%s=%s ", k[i], $i }')"
	done
	echo "  transfer done [$(cut -d' ' -f1 /proc/uptime)]"
	set -- $(counters $s closed)
	echo "  /proc/net/mpqoe_$s: $(ip netns exec srv cat /proc/net/mpqoe_$s | grep state=closed | tail -1)"
	if [ "${1:-0}" -gt 0 ] && [ "${3:-0}" -ge 2 ]; then
		pass "$s counters: decisions=$1 switches=$2 subflows_with_bytes=$3"
	else
		fail "$s counters: decisions=${1:-none} switches=${2:-none} subflows_with_bytes=${3:-none}"
	fi
	# the room: minrtt and the sticky schedulers hand a subflow at most its window room, so
	# over 2 Mbit/s paths some bursts are lowered; dft and daps keep upstream's burst
	case $s in
	dft | daps) room_ok=$([ "${4:-x}" = 0 ] && echo y) ;;
	bnaware) room_ok=$([ -n "${4:-}" ] && echo y) ;;
	*) room_ok=$([ "${4:-0}" -gt 0 ] && echo y) ;;
	esac
	if [ "$room_ok" = y ]; then
		pass "$s room: room_limited=$4"
	else
		fail "$s room: room_limited=${4:-none}"
	fi

	if ip netns exec cli cat /proc/net/mpqoe_$s | grep -q 'local=10.0.1.2:' ||
		grep -q '^conn=' /proc/net/mpqoe_$s; then
		fail "$s per-netns: the server's connection is listed outside srv"
	else
		pass "$s per-netns: the server's connection is listed in srv only"
	fi

	# 2. rmmod refused while a connection uses the scheduler, counters readable meanwhile
	/usr/sbin/ip netns exec srv mptcp_xfer server 5001 0 >/tmp/bsrv.out 2>&1 &
	bspid=$!
	/usr/sbin/ip netns exec cli mptcp_xfer client 10.0.1.2 5001 >/tmp/bcli.out 2>&1 &
	bcpid=$!
	sleep 2
	echo "  busy transfer started [$(cut -d' ' -f1 /proc/uptime)]"
	set -- $(counters $s live)
	d1=${1:-0}
	if rmmod mpqoe_$s 2>/tmp/rmmod.err; then
		fail "$s rmmod busy: succeeded while a connection used it"
	elif grep -qw "$s" /proc/sys/net/mptcp/available_schedulers && [ "$(refcnt $s)" != gone ]; then
		pass "$s rmmod busy: refused ($(tr '\n' ' ' </tmp/rmmod.err)), refcnt=$(refcnt $s)"
	else
		fail "$s rmmod busy: refused but the scheduler is gone"
	fi
	sleep 1
	set -- $(counters $s live)
	if [ "$d1" -gt 0 ] && [ "${1:-0}" -gt "$d1" ]; then
		pass "$s live counters: decisions $d1 -> $1 while running"
	else
		fail "$s live counters: decisions $d1 -> ${1:-none}"
	fi
	# a graceful end: the server stops sending, the client reads to the end and closes
	kill $bspid
	wait $bcpid
	wait $bspid
	echo "  busy transfer: $(cat /tmp/bsrv.out) / $(cat /tmp/bcli.out) [$(cut -d' ' -f1 /proc/uptime)]"

	[ "$s" = "$first" ] && test_proc "$s"

	# 3. rmmod once idle
	i=0
	while [ "$(refcnt $s)" != 0 ] && [ $i -lt 150 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	ip netns exec srv sh -c "echo clear >/proc/net/mpqoe_$s"
	n=$(ip netns exec srv cat /proc/net/mpqoe_$s | grep -c '^conn=')
	[ "$n" = 0 ] && pass "$s clear: closed connections dropped" ||
		fail "$s clear: $n connections still listed"
	if rmmod mpqoe_$s 2>/tmp/rmmod.err; then
		if grep -qw "$s" /proc/sys/net/mptcp/available_schedulers; then
			fail "$s rmmod idle: still in available_schedulers"
		else
			pass "$s rmmod idle: unloaded after $((i / 5)).$((i % 5 * 2))s"
		fi
	else
		fail "$s rmmod idle: $(cat /tmp/rmmod.err) refcnt=$(refcnt $s)"
	fi
	for ns in cli srv; do
		ip netns exec $ns sh -c "echo default >/proc/sys/net/mptcp/scheduler"
	done
}

# The module refuses addresses that are not the two symbols (here: swapped, then none).
sym() { awk -v s="$1" '$3 == s { print $1 }' /proc/kallsyms; }
test_sched_all() {
s=$(cut -d' ' -f1 /mpqoe/schedulers)
if insmod /mpqoe/mpqoe_$s.ko sched_list=0x$(sym mptcp_sched_list_lock) \
	sched_list_lock=0x$(sym mptcp_sched_list) 2>/dev/null || insmod /mpqoe/mpqoe_$s.ko 2>/dev/null; then
	fail "$s bad addresses: loaded"
	rmmod mpqoe_$s
elif dmesg | grep -q "address given for mptcp_sched_list points to mptcp_sched_list_lock"; then
	pass "$s bad addresses: refused ($(dmesg | grep -o 'points to [^ ]*' | tail -1))"
else
	fail "$s bad addresses: refused without the expected message"
fi

# ... and a keep_closed out of range
if /mpqoe/mpqoe-load /mpqoe/mpqoe_$s.ko keep_closed=16385 2>/dev/null; then
	fail "$s keep_closed at load: 16385 accepted"
	rmmod mpqoe_$s
elif dmesg | grep -q 'keep_closed: "16385" refused'; then
	pass "$s keep_closed at load: 16385 refused ($(dmesg | grep -o 'refused: .*' | tail -1))"
else
	fail "$s keep_closed at load: refused without the expected message"
fi

first=$s
for s in $(cat /mpqoe/schedulers); do
	t0=$(cut -d. -f1 /proc/uptime)
	test_module "$s"
	echo "  $s: $(($(cut -d. -f1 /proc/uptime) - t0)) s"
done
}

[ -n "$(cat /mpqoe/schedulers)" ] && test_sched_all
if [ -n "$(cat /mpqoe/ccs 2>/dev/null)" ]; then
	. /mpqoe/guest-cc.sh
	test_cc_all
fi
finish
