#!/usr/bin/env bash
# The workflow on a real Slurm cluster (make slurm-test; docs/workflow.md). As root, with the
# scheduler modules and the testbed guest built. It starts a one-node cluster on this machine
# (cluster.sh), then:
#   1. a trivial sbatch job runs;
#   2. a run job on a node without the testbed guest (the guest cache pointed elsewhere, as
#      on a node that lacks it) fails through the Slurm profile with preflight's one line;
#   3. the dry run through the Slurm profile lists one job per run;
#   3b. a sweep whose runs the runner's store already holds, through Slurm (no guest boots):
#      run files and tables appear, and the local profile has nothing left to do;
#   4. a small sweep (2 cells x 2 runs of 10 s, one guest per run) through the Slurm profile,
#      then the same sweep locally (one guest for the 4 runs);
#   5. slurm_compare.py: the merged tables of both have the same structure, every run file is
#      complete.
# With --no-guest only steps 1-3b (no guest is booted: about 2 min).
# Stops the cluster in any case; keeps its work directory when a step failed (printed).
set -euo pipefail
no_guest=0
[[ ${1:-} == --no-guest ]] && no_guest=1
cd "$(dirname "$0")/../.."
REPO=$(pwd)
SNAKEMAKE=${SNAKEMAKE:-$REPO/build/snakemake/bin/snakemake}
EXP=sticky
CELLS=baseline.dft.cubic,baseline.minrtt.cubic
RUNS=2
DURATION=10

say() { echo "slurm-test: $*"; }
fail() {
	echo "slurm-test: FAIL $*" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpqoe-slurm-test.XXXXXX")
ok=0
cleanup() {
	workflow/slurm-test/cluster.sh stop "$tmp/cluster" || true
	if ((ok)); then rm -rf "$tmp"; else echo "slurm-test: kept $tmp (logs)" >&2; fi
}
trap cleanup EXIT
trap "exit 130" INT
trap "exit 143" TERM HUP

eval "$(workflow/slurm-test/cluster.sh start "$tmp/cluster")"
say "cluster up: $(sinfo -h -N -o '%N %t %c CPUs %m MB')"

# 1. a trivial job
sbatch --wait -Q -o "$tmp/trivial.out" --wrap 'echo "ran on $(hostname) as uid $(id -u)"'
grep -q "as uid 0" "$tmp/trivial.out" || fail "trivial job: $(cat "$tmp/trivial.out")"
say "ok   a trivial job: $(cat "$tmp/trivial.out")"

# sweep NAME [ARG ...]: the small sweep into $tmp/NAME through snakemake ARGs
sweep() {
	local name=$1
	shift
	"$SNAKEMAKE" -s workflow/Snakefile "$@" --config "runs_dir=$tmp/$name/runs" \
		"scheduler_results=$tmp/$name/store" "publish=$tmp/$name/tables" reports=false \
		"video_experiments=[]" "scheduler_experiments=[$EXP]" "scheduler_cells=$CELLS" \
		"scheduler_runs=${SWEEP_RUNS:-$RUNS}" "scheduler_duration=$DURATION"
}
SLURM=(--profile workflow/profiles/slurm --slurm-status-command squeue --slurm-no-account
	--slurm-init-seconds-before-status-checks 5)

# 2. a node without the guest: the job fails with preflight's line, nothing is published
if MPQOE_TESTBED_CACHE=$tmp/no-guest SWEEP_RUNS=1 sweep no-guest "${SLURM[@]}" \
	--slurm-logdir "$tmp/no-guest/logs" >"$tmp/no-guest.log" 2>&1; then
	fail "a sweep on a node without the guest succeeded"
fi
line=$(grep -rh "^preflight on " "$tmp/no-guest/logs" | head -n 1 || true)
[[ $line == *"no testbed guest built"* ]] || fail "no preflight line in the job's log: '$line'"
[[ ! -e $tmp/no-guest/tables ]] || fail "a failed sweep published tables"
say "ok   a node without the guest: $line"

# 3. the dry run lists one job per run
jobs=$(sweep dry "${SLURM[@]}" -n 2>&1 | grep -c "^rule scheduler_$EXP" || true)
((jobs == 2 * RUNS)) || fail "the dry run lists $jobs run jobs, want $((2 * RUNS))"
say "ok   the dry run through the Slurm profile lists $jobs run jobs"

# 3b. a sweep whose runs the runner's store already holds (no guest boots): through Slurm
#     the jobs check the node, call the runner, take the runs over; the tables are published;
#     the local profile then has nothing left to do
(cd workflow && /usr/bin/python3 - "$tmp/stored/store" "$CELLS" "$RUNS") <<'PY'
import json, os, sys
from test_workflow import scheduler_doc  # workflow/test_workflow.py, run from its directory
store, cells, runs = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
for c in cells:
    for k in range(1, runs + 1):
        p = os.path.join(store, "sticky", c, f"run{k}.json")
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            json.dump(scheduler_doc(c, k), f)
PY
sweep stored "${SLURM[@]}" --slurm-logdir "$tmp/stored/logs" >"$tmp/stored.log" 2>&1 ||
	{ tail -n 30 "$tmp/stored.log" >&2; fail "the stored sweep through Slurm failed"; }
n=$(find "$tmp/stored/runs" -name 'run*.json' | wc -l)
rows=$(($(wc -l <"$tmp/stored/tables/$EXP/data/runs.csv") - 1))
((n == 2 * RUNS && rows == 2 * RUNS)) || fail "stored sweep: $n run files, $rows table rows"
left=$(sweep stored --profile workflow/profiles/local -n 2>&1 | grep -c "^rule " || true)
((left == 0)) || fail "the local profile would make $left jobs of the sweep made on Slurm"
say "ok   a stored sweep through Slurm: $n run files, $rows rows; nothing left to do locally"

if ((no_guest)); then
	ok=1
	say "4 passed, 0 failed (--no-guest: no guest booted)"
	exit 0
fi

# 4. the sweep through Slurm, then locally
t0=$SECONDS
sweep slurm "${SLURM[@]}" --slurm-logdir "$tmp/slurm/logs" >"$tmp/slurm.log" 2>&1 ||
	{ tail -n 30 "$tmp/slurm.log" >&2; fail "the sweep through Slurm failed"; }
say "ok   the sweep through Slurm: $((SECONDS - t0)) s"
t0=$SECONDS
sweep local --profile workflow/profiles/local --cores 2 >"$tmp/local.log" 2>&1 ||
	{ tail -n 30 "$tmp/local.log" >&2; fail "the sweep run locally failed"; }
say "ok   the same sweep locally: $((SECONDS - t0)) s"

# 5. the verdict
/usr/bin/python3 workflow/slurm_compare.py "$EXP" "$CELLS" "$RUNS" "$tmp/local" "$tmp/slurm"
ok=1
