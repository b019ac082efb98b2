#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the workflow's Slurm test (docs/workflow.md):
# munged, slurmctld and slurmd (Debian's munge and slurm-wlm) with their configuration, state
# and logs in DIR, on free ports, this host as the node with its real CPUs and memory
# (`slurmd -C`). No accounting daemon: jobs are kept in slurmctld's memory for a day
# (MinJobAge), so squeue can tell a job's end state (Snakemake: --slurm-status-command squeue).
#
#   workflow/slurm-test/cluster.sh start DIR   # as root; prints the exports (SLURM_CONF, PATH)
#   workflow/slurm-test/cluster.sh stop DIR    # stops the daemons it started (by their pids)
#
# start waits until the node is idle (at most 60 s) and stops what it started when it fails.
set -euo pipefail

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

start() {
	local dir=$1
	((EUID == 0)) || die "run as root (slurmd starts jobs as their users)"
	for c in munged slurmctld slurmd sinfo; do
		command -v "$c" >/dev/null || [[ -x /usr/sbin/$c ]] ||
			die "no $c (apt-get install slurm-wlm munge)"
	done
	mkdir -p "$dir"/{munge,ctld,spool,log}
	dir=$(cd "$dir" && pwd)
	chmod 700 "$dir/munge"
	# munged wants its key private and its directories not writable by others
	dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
	chmod 400 "$dir/munge/munge.key"
	/usr/sbin/munged --force --key-file="$dir/munge/munge.key" \
		--socket="$dir/munge/munge.sock" --pid-file="$dir/munge/munged.pid" \
		--log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" ||
		die "munged did not start (see $dir/log/munged.log)"
	local node cpus mem ports
	node=$(hostname -s)
	cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')
	mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
	ports=$(/usr/bin/python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
	read -r ctld_port d_port <<<"$ports"
	cat >"$dir/slurm.conf" <<EOF
# written by workflow/slurm-test/cluster.sh: one node, this host
ClusterName=mpqoe-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
MinJobAge=86400
SlurmdTimeout=300
InactiveLimit=0
KillWait=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
	# Snakemake's jobstep executor drops the SLURM_* variables but a few (SLURM_CONF too)
	# before its srun inside a job, so srun would look for /etc/slurm/slurm.conf, where a
	# real cluster keeps its configuration (or gets it configless); this one's is in DIR, so
	# an srun on PATH before the real one says where.
	mkdir -p "$dir/bin"
	printf '#!/bin/sh\nSLURM_CONF=%q exec /usr/bin/srun "$@"\n' "$dir/slurm.conf" >"$dir/bin/srun"
	chmod 755 "$dir/bin/srun"
	export SLURM_CONF=$dir/slurm.conf
	/usr/sbin/slurmctld -f "$SLURM_CONF" || { stop "$dir"; die "slurmctld did not start (see $dir/log/slurmctld.log)"; }
	/usr/sbin/slurmd -f "$SLURM_CONF" || { stop "$dir"; die "slurmd did not start (see $dir/log/slurmd.log)"; }
	local state=""
	for _ in $(seq 60); do
		state=$(sinfo -h -N -o %t 2>/dev/null || true)
		[[ $state == idle ]] && break
		sleep 1
	done
	if [[ $state != idle ]]; then
		stop "$dir"
		die "the node is not idle after 60 s (state '${state:-none}'; logs in $dir/log)"
	fi
	echo "export SLURM_CONF=$dir/slurm.conf PATH=$dir/bin:\$PATH"
}

stop() {
	local dir=$1 pid
	# jobs still running (a test interrupted): cancel them first, since their slurmstepd and
	# guest would outlive slurmd
	if [[ -f $dir/slurmctld.pid ]] && kill -0 "$(<"$dir/slurmctld.pid")" 2>/dev/null; then
		SLURM_CONF=$dir/slurm.conf scancel --quiet --partition=test 2>/dev/null || true
		for _ in $(seq 60); do
			[[ -z $(SLURM_CONF=$dir/slurm.conf squeue -h -t RUNNING,PENDING,COMPLETING 2>/dev/null) ]] &&
				break
			sleep 1
		done
	fi
	for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
		[[ -f $f ]] || continue
		pid=$(<"$f")
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$pid" 2>/dev/null || true
		rm -f "$f"
	done
}

case ${1:-} in
start) start "${2:?cluster.sh start DIR}" ;;
stop) stop "${2:?cluster.sh stop DIR}" ;;
*) die "usage: cluster.sh start|stop DIR" ;;
esac
