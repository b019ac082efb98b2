"""The run numbers a runner makes: every run of its --runs, or the workflow's --only-runs; how
cells x runs are cut into guest batches or workflow jobs; and the random order of a batch's runs.

A job of the workflow (workflow/plan.py, docs/workflow.md) makes some run numbers of its
cells; every runner takes them as `--only-runs K,...` and leaves the other runs as they are.
"""

import random

ONLY_RUNS_HELP = (
    "comma-separated run numbers (of 1..--runs) to make, e.g. 3 or 1,2: what one job of the "
    "workflow (workflow/Snakefile) makes; the others are left as they are"
)


def only_runs(text, runs):
    """The sorted run numbers --only-runs TEXT names (all of 1..runs when TEXT is empty or
    None); ValueError with the option's one-line message when TEXT is not a list of numbers
    of 1..runs."""
    if not text:
        return list(range(1, runs + 1))
    try:
        out = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise ValueError(f"--only-runs: want run numbers, got {text!r}") from None
    if not out or not all(1 <= k <= runs for k in out):
        raise ValueError(f"--only-runs: want numbers of 1..{runs}")
    return out


def chunks(cells, runs, size):
    """[(cells, runs)] covering cells x runs, each at most size runs (all of it with size 0):
    run numbers split first, so that a chunk keeps every cell of its runs (interleaved). How
    the scheduler runner cuts a scenario into guest batches and the workflow a network into
    jobs."""
    if not size:
        return [(tuple(cells), tuple(runs))]
    out = []
    for g in range(0, len(cells), size):
        group = cells[g : g + size]
        per = max(1, size // len(group))
        for i in range(0, len(runs), per):
            out.append((tuple(group), tuple(runs[i : i + per])))
    return out


def drawn_order(runs, seed, batch, key):
    """runs sorted by a pseudo-random draw of each run's own (seed, batch, cell, run), key(run)
    giving its cell's name and its run number: the order of any subset of a batch's runs is
    the full order's restricted to it, so a batch resumed (or cut differently) keeps the
    relative order of what is left. How the video and the scheduler runners order the runs of
    a batch (each records the seed and the run's place in its run document)."""

    def draw(run):
        cell, k = key(run)
        return random.Random(f"{seed}:{batch}:{cell}:{k}").random()

    return sorted(runs, key=draw)
