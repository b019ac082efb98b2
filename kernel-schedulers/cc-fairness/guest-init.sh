#!/bin/sh
# /init of the congestion control fairness guest (busybox sh, Debian's 6.12 kernel under QEMU
# TCG), booted by ../smoke/run.sh --init, which puts ../smoke/guest-lib.sh (mounts, verdict
# lines) beside it; see README.md beside this file.
#
# Namespaces cli (sender), rtr (router) and srv (receiver):
#
#   cli c1 10.1.1.1 --- r1 \            / ra 10.2.1.1 --- sa 10.2.1.2  srv
#   cli c2 10.1.2.1 --- r2  rtr (fwd) --
#   cli c3 10.1.3.1 --- r3 /            \ rb 10.2.2.1 --- sb 10.2.2.2  srv
#
# The receiver's ACKs leave srv through sa, delayed $DELAY_MS (netem): the base RTT. Data
# toward srv leaves rtr through ra, shaped by netem to $RATE1 with a $LIMIT1-packet queue (tail
# drop): the bottleneck. Every connection goes to 10.2.1.2. The sender's interfaces send one
# segment per packet (gso_max_segs 1), so that netem's queue limit counts packets, not 64 KB
# GSO bursts (veth forwards those unsegmented).
#  - case "shared": the MPTCP connection (first subflow from c1, its join from c2, two paths
#    that merge at rtr) and one regular TCP connection from c3 share ra;
#  - case "disjoint": no competing flow; rtr sends what comes from c2 through rb instead (policy
#    routing; srv accepts 10.2.1.2 on sb), shaped to $RATE2 with a $LIMIT2-packet queue: two
#    separate bottlenecks, one subflow each.
# /mpqoe/plan has one run per line: "<case> <algo> <tcp cc> <run number>". The MPTCP sender
# sets TCP_CONGESTION=<algo> on its socket (every subflow gets it), the TCP sender <tcp cc>.
# Each flow sends $DURATION s; the receivers count what arrives in [$WARM, $WARM + $MEASURE) s
# after their accept. Per run one line "RESULT key=value ..." (and PASS or FAIL) goes to the
# console and to ttyS1, which carries nothing else; SMOKE-DONE at the end.
. /mpqoe/guest-lib.sh
. /mpqoe/fairness.env
for c in $(cat /mpqoe/ccs); do
	insmod /mpqoe/mpqoe_$c.ko || { fail "setup: insmod mpqoe_$c"; finish; }
done

# ip and tc, not Mininet: the busybox initramfs has no Python and no Open vSwitch.
setup_net() {
	for n in cli rtr srv; do
		ip netns add $n && ip -n $n link set lo up || return 1
	done
	for i in 1 2 3; do
		ip link add c$i netns cli type veth peer name r$i netns rtr &&
			ip -n cli addr add 10.1.$i.1/24 dev c$i && ip -n rtr addr add 10.1.$i.254/24 dev r$i &&
			ip -n cli link set c$i gso_max_segs 1 && ip -n cli link set c$i up &&
			ip -n rtr link set r$i up &&
			ip -n cli route add default via 10.1.$i.254 dev c$i table $i &&
			ip -n cli rule add from 10.1.$i.1 table $i || return 1
	done
	ip -n cli route add default via 10.1.1.254 || return 1
	for x in a b; do
		k=1
		[ $x = b ] && k=2
		ip link add r$x netns rtr type veth peer name s$x netns srv &&
			ip -n rtr addr add 10.2.$k.1/24 dev r$x && ip -n srv addr add 10.2.$k.2/24 dev s$x &&
			ip -n rtr link set r$x up && ip -n srv link set s$x up || return 1
	done
	ip -n srv route add default via 10.2.1.1 dev sa || return 1
	/usr/sbin/ip netns exec rtr sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' || return 1
	for n in rtr srv; do
		/usr/sbin/ip netns exec $n sh -c 'for f in /proc/sys/net/ipv4/conf/*/rp_filter; do echo 0 >$f; done'
	done
	# the disjoint case's second path: what comes from c2 leaves rtr through rb
	ip -n rtr route add 10.2.1.2/32 dev rb table 2 || return 1
	tc -n srv qdisc add dev sa root netem delay ${DELAY_MS}ms limit 10000 &&
		tc -n rtr qdisc add dev ra root netem rate $RATE1 limit $LIMIT1 &&
		tc -n rtr qdisc add dev rb root netem rate $RATE2 limit $LIMIT2 || return 1
	for n in cli srv; do
		ip -n $n mptcp limits set subflows 1 add_addr_accepted 0 || return 1
	done
	ip -n cli mptcp endpoint add 10.1.2.1 dev c2 subflow
}
if setup_net && /usr/sbin/ip netns exec cli ping -c 1 -W 2 -I 10.1.2.1 10.2.1.2 >/dev/null; then
	pass "setup: namespaces, router, bottleneck $RATE1 ($LIMIT1 packets), ACK delay ${DELAY_MS} ms"
else
	fail "setup: network"
	finish
fi

cpu_busy() { # busy and total jiffies of all CPUs so far
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}

# pick <file> <key>: the value of key=value in the first line of the file
pick() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p" | head -1; }

# queues: the bytes and drops so far of the two bottleneck queues (ra, rb) and the time in
# centiseconds: "<ra bytes> <ra drops> <rb bytes> <rb drops> <cs>"
queues() {
	for d in ra rb; do
		tc -n rtr -s qdisc show dev $d | awk '/Sent/ { sub(",", "", $7); print $2, $7; exit }'
	done | tr '\n' ' '
	awk '{ sub("\\.", "", $1); print $1 }' /proc/uptime
}

# path_rate <bytes before> <bytes after> <cs before> <cs after>: Mbit/s, 3 decimals
path_rate() {
	awk -v a=$1 -v b=$2 -v s=$3 -v e=$4 'BEGIN { printf "%.3f", (b - a) * 8 / ((e - s) * 10000) }'
}

run_one() {
	case=$1
	algo=$2
	tcpcc=$3
	run=$4
	if [ "$case" = disjoint ]; then
		ip -n rtr rule add from 10.1.2.0/24 table 2
	fi
	/usr/sbin/ip netns exec srv cc_xfer recv -m -w $WARM -s $MEASURE 5001 >/tmp/rm.out 2>&1 &
	rm_pid=$!
	if [ "$case" = shared ]; then
		/usr/sbin/ip netns exec srv cc_xfer recv -w $WARM -s $MEASURE 5002 >/tmp/rt.out 2>&1 &
		rt_pid=$!
	fi
	sleep 0.5
	set -- $(cpu_busy)
	b0=$1
	t0=$2
	/usr/sbin/ip netns exec cli cc_xfer send -m -c $algo -b 10.1.1.1 -t $DURATION 10.2.1.2 5001 \
		>/tmp/sm.out 2>&1 &
	sm_pid=$!
	if [ "$case" = shared ]; then
		/usr/sbin/ip netns exec cli cc_xfer send -c $tcpcc -b 10.1.3.1 -t $DURATION 10.2.1.2 5002 \
			>/tmp/st.out 2>&1 &
		st_pid=$!
	fi
	# each bottleneck queue's rate and drops from $WARM s after the start to the sender's end,
	# in frame bytes (what netem's rate counts): how much of each path was used
	sleep $WARM
	q0=$(queues)
	sleep $((DURATION / 2 - WARM))
	# the connection's line in the middle of the run (coupled algorithms only)
	line=
	[ -f /proc/net/mpqoe_$algo ] 2>/dev/null &&
		line=$(/usr/sbin/ip netns exec cli grep 'state=live' /proc/net/mpqoe_$algo | tail -1)
	wait $sm_pid
	src=$?
	set -- $q0 $(queues)
	path1_mbps=$(path_rate $1 $6 $5 ${10})
	path2_mbps=$(path_rate $3 $8 $5 ${10})
	path1_drops=$(($7 - $2))
	path2_drops=$(($9 - $4))
	set -- $(cpu_busy)
	busy=$(((($1 - b0) * 100) / ($2 - t0 + 1)))
	wait $rm_pid
	tcp_mbps=
	if [ "$case" = shared ]; then
		wait $st_pid
		src=$((src + $?))
		wait $rt_pid
		tcp_mbps=$(pick /tmp/rt.out window_mbps)
	fi
	[ "$case" = disjoint ] && ip -n rtr rule del from 10.1.2.0/24 table 2
	mptcp_mbps=$(pick /tmp/rm.out window_mbps)
	sf=$(pick /tmp/sm.out subflows)
	got=$(pick /tmp/sm.out cc)
	members=$(echo "$line" | tr ' ' '\n' | sed -n 's/^members=//p')
	verdict "RESULT case=$case algo=$algo tcp_cc=${tcpcc:--} run=$run mptcp_mbps=$mptcp_mbps" \
		"tcp_mbps=${tcp_mbps:--} subflows=$sf cc=$got members=${members:--}" \
		"guest_cpu_pct=$busy path1_mbps=$path1_mbps path2_mbps=$path2_mbps" \
		"path1_drops=$path1_drops path2_drops=$path2_drops"
	echo "  $(cat /tmp/sm.out) / $(cat /tmp/rm.out)"
	[ "$case" = shared ] && echo "  $(cat /tmp/st.out) / $(cat /tmp/rt.out)"
	[ -n "$line" ] && echo "  $line"
	if [ $src = 0 ] && [ "$sf" = 2 ] && [ "$got" = "$algo" ] && [ -n "$mptcp_mbps" ] &&
		{ [ "$case" = disjoint ] || [ -n "$tcp_mbps" ]; }; then
		pass "run $case $algo $run"
	else
		fail "run $case $algo $run: rc=$src subflows=$sf cc=$got"
	fi
	sleep 2 # let the closed connections go before the next run
}

while read -r c a t r; do
	[ -n "$c" ] || continue
	[ "$t" = - ] && t=
	run_one "$c" "$a" "$t" "$r"
done </mpqoe/plan
finish
