"""The campaign interface every experiment family is made through: cells lead to attempts,
attempts to run records, run records to published rows.

- **Cells and runs.** A family's cells (a video cell, a scheduler cell, a fairness case and
  algorithm, a PCDC congestion control) each get runs 1..N; `mpqoe.runs.only_runs` and
  `chunks` pick and cut them.
- **Attempts.** Every attempt at a run, ok or failed, is recorded once it ends
  (`record_attempt`): `<store>/<experiment>/attempts/<cell>/run<k>-<n>.json`, one document of
  ATTEMPT_SCHEMA with the status, why it failed, the code version, the kernel and the host's
  CPU where the family measures on this host. Attempts are never overwritten: the n-th
  attempt at a run is its own file.
- **Run records.** What an ok attempt leaves is the family's run record (a run document, a
  row, a run's result files) in its store; a run is done when its record is ok and complete.
  `state` says, per cell, which runs are ok, failed or missing; resuming is making what is
  not ok (`todo`).
- **Manifest.** One format for every family (MANIFEST_SCHEMA), one per experiment,
  `<store>/<experiment>/manifest.json` (`write_manifest`): per cell its ok, failed and
  missing runs, the counts, the attempts, the code versions and "partial" until every run of
  every cell is ok.
- **Published rows.** `publish_table` joins a run record's rows to a committed table (a run
  published again replaces itself) and writes it atomically.
- **Families.** Each family is a `Family` (mpqoe.campaign_video, campaign_sched, campaign_cc,
  campaign_pcdc): its workflow jobs (`jobs(config)`), what a job's runs are copied as
  (`copies`), when a run record is done (`check`), its publish steps (`publications`), its
  report. workflow/plan.py and workflow/collect.py go through `families()` only.

Stdlib only.
"""

import dataclasses
import datetime
import os
import platform
import re
import shlex

from mpqoe import REPO, files

MANIFEST_SCHEMA = "mpqoe-campaign-manifest/1"
ATTEMPT_SCHEMA = "mpqoe-campaign-attempt/1"
PY = "/usr/bin/python3"


class ConfigError(Exception):
    """A workflow configuration the families cannot plan: one line naming the key."""


def now_utc():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------------------
# Host facts an attempt records


def host_cpu():
    """The host's CPU model and count, e.g. "Intel(R) Xeon(R) ... x2" ("" when unknown)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            models = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
    except OSError:
        models = []
    model = models[0] if models else platform.processor()
    return f"{model} x{len(models) or os.cpu_count() or 1}" if model else ""


def kernel_release():
    return platform.release()


# ---------------------------------------------------------------------------------------------
# Attempts


def _cell_dir(cell):
    """A cell name as one directory name (the fairness experiment's case/algo)."""
    return str(cell).replace("/", "_")


def attempts_dir(store, experiment, cell):
    return os.path.join(store, experiment, "attempts", _cell_dir(cell))


def record_attempt(store, experiment, cell, run, status, why="", *, family, code_version,
                   kernel="", cpu="", record="", **extra):  # fmt: skip
    """Record one attempt at run `run` of `cell` (ok or failed, with why) as the next
    attempt's document; returns its path. kernel: the kernel the run ran on (the guest's),
    cpu: the host's CPU where the family measures on this host ("" elsewhere), record: the run
    record it left, relative to the store. Atomic; never replaces an attempt."""
    d = attempts_dir(store, experiment, cell)
    os.makedirs(d, exist_ok=True)
    n = 1 + max([a["attempt"] for a in _attempt_names(d) if a["run"] == run] or [0])
    doc = {
        "schema": ATTEMPT_SCHEMA,
        "family": family,
        "experiment": experiment,
        "cell": str(cell),
        "run": int(run),
        "attempt": n,
        "status": status,
        "why": " ".join(str(why or "").split())[:500],
        "code_version": code_version,
        "kernel": kernel,
        "host_cpu": cpu,
        "record": record,
        "ended_utc": now_utc(),
        **extra,
    }
    path = os.path.join(d, f"run{int(run)}-{n}.json")
    while os.path.exists(path):  # another job of the same cell at the same moment
        n += 1
        doc["attempt"] = n
        path = os.path.join(d, f"run{int(run)}-{n}.json")
    files.write_json(path, doc)
    return path


def _attempt_names(d):
    out = []
    for name in os.listdir(d) if os.path.isdir(d) else []:
        m = re.fullmatch(r"run(\d+)-(\d+)\.json", name)
        if m:
            out.append({"run": int(m.group(1)), "attempt": int(m.group(2)), "name": name})
    return out


def attempts(store, experiment):
    """Every recorded attempt of an experiment, by cell, run and attempt number."""
    top = os.path.join(store, experiment, "attempts")
    out = []
    for cell in sorted(os.listdir(top)) if os.path.isdir(top) else []:
        d = os.path.join(top, cell)
        for a in _attempt_names(d):
            doc = files.read_json(os.path.join(d, a["name"]))
            if doc and doc.get("schema") == ATTEMPT_SCHEMA:
                out.append(doc)
    return sorted(out, key=lambda a: (a["cell"], a["run"], a["attempt"]))


# ---------------------------------------------------------------------------------------------
# Run state, resume, manifest


def state(cells, runs, status_of):
    """{cell: {"ok": [k], "failed": [k], "missing": [k]}} over runs 1..runs of each cell;
    status_of(cell, k) is "ok", "failed" or None (no run record)."""
    out = {}
    for c in cells:
        st = {"ok": [], "failed": [], "missing": []}
        for k in range(1, runs + 1):
            s = status_of(c, k)
            st["missing" if s is None else "ok" if s == "ok" else "failed"].append(k)
        out[str(c)] = st
    return out


def todo(cells, runs, status_of):
    """[(cell, k)] of the runs `runs` (numbers) of cells whose record is not ok, interleaved
    by k (run k of every cell, then k + 1): what resuming makes."""
    return [(c, k) for k in runs for c in cells if status_of(c, k) != "ok"]


def complete(st):
    return bool(st) and all(not s["failed"] and not s["missing"] for s in st.values())


def manifest_path(store, experiment):
    return os.path.join(store, experiment, "manifest.json")


def write_manifest(store, family, experiment, runs, st, *, code_versions=(), note="", **extra):
    """Write the experiment's manifest (MANIFEST_SCHEMA) from its run state `st` (`state`) and
    its recorded attempts; returns it. Old manifests of another format are replaced."""
    tried = attempts(store, experiment)
    doc = {
        "schema": MANIFEST_SCHEMA,
        "family": family,
        "experiment": experiment,
        "status": "complete" if complete(st) else "partial",
        "partial": not complete(st),
        "runs_per_cell": runs,
        "counts": {k: sum(len(s[k]) for s in st.values()) for k in ("ok", "failed", "missing")},
        "cells": st,
        "attempts": {
            "ok": sum(a["status"] == "ok" for a in tried),
            "failed": sum(a["status"] != "ok" for a in tried),
        },
        "code_versions": sorted({v for v in code_versions if v}),
        "note": note,
        "updated_utc": now_utc(),
        **extra,
    }
    files.write_json(manifest_path(store, experiment), doc)
    return doc


def read_manifest(store, experiment):
    """The experiment's manifest, None when there is none; ValueError for a manifest of another
    format (a store written before this one: its runs still resume, from their records)."""
    doc = files.read_json(manifest_path(store, experiment))
    if doc is None:
        return None
    if doc.get("schema") != MANIFEST_SCHEMA:
        raise ValueError(
            f"{manifest_path(store, experiment)}: not a {MANIFEST_SCHEMA} manifest (an older "
            "store's; the runner writes it anew from the run records)"
        )
    return doc


# ---------------------------------------------------------------------------------------------
# Published rows


RUN_DOC_KEYS = ("schema", "experiment", "cell", "run", "code_version")


def same_schema(value, schema):
    """Whether value names schema's document kind, at any version ("mpqoe-video-run/2" and
    "mpqoe-video-run/1")."""
    return str(value).startswith(schema.split("/")[0] + "/")


def run_doc_lacks(doc, schema):
    """What every run document needs and doc lacks, or None: the first of RUN_DOC_KEYS without
    a value, or a schema of another kind than schema."""
    for key in RUN_DOC_KEYS:
        if doc.get(key) in (None, ""):
            return f"no {key}"
    if not same_schema(doc["schema"], schema):
        return f"unknown schema {doc['schema']!r}"
    return None


def check_run_doc(src, incomplete):
    """(why the run document at src is not done, or None; None): "missing", its status and
    error when not ok, or what incomplete(doc) finds missing in an ok one. A family's `check`
    for runners whose run record is one JSON document (collect copies it as it is)."""
    doc = files.read_json(src)
    if not doc:
        return "missing", None
    if doc.get("status") != "ok":
        why = " ".join(str(doc.get("error") or "no error recorded").split())[:200]
        return f"{doc.get('status')} ({why})", None
    why = incomplete(doc)
    return (f"ok but incomplete ({why})" if why else None), None


def publish_table(path, rows, fields, order, identity, read):
    """Join rows to the committed table at path (`mpqoe.results.merge_runs`: a run published
    again replaces itself, the others stay) and write it atomically; read(path) gives its rows
    as they are ([] when absent). Returns (rows published, rows kept)."""
    from mpqoe import results  # noqa: PLC0415 - the reports' CSV helpers

    merged = results.merge_runs(read(path), rows, order, identity)
    files.write_atomic(path, results.csv_text(merged, fields))
    return len(rows), len(merged) - len(rows)


# ---------------------------------------------------------------------------------------------
# Families and their workflow jobs


def time_limit_min(estimate_s):
    """A job's time limit: the estimate and a half, and 10 min."""
    return int(estimate_s * 1.5 / 60) + 10


@dataclasses.dataclass(frozen=True)
class Job:
    """Some runs of one network, made by the family's runner (one rule of the Snakefile)."""

    kind: str  # the family: "video", "scheduler", "cc" or "pcdc"
    experiment: str  # (the scenario for PCDC)
    network: str  # what one guest boot builds (a video batch, a scheduler scenario at one
    # length, the fairness network, PCDC's rate scale rate<x>)
    cells: tuple  # cell names
    runs: tuple  # run numbers (none: a job that makes no run, e.g. PCDC's table)
    store: str  # the runner's --results
    out_dir: str  # the workflow's run files of the family
    argv: tuple  # the runner's arguments, --cells and --only-runs included
    estimate_s: float  # machine time, boot included
    program: tuple = (PY,)  # what argv is given to
    needs: tuple = ()  # the job's inputs (a PCDC run job's table)

    @property
    def family(self):
        return family(self.kind)

    @property
    def name(self):
        """The rule's name: unique, letters, digits and underscores."""
        cells = "" if len(self.cells) != 1 else f"_{self.cells[0]}".replace("/", "_")
        runs = "_r" + "_".join(map(str, self.runs)) if self.runs else "_table"
        raw = f"{self.kind}_{self.experiment}_{self.network}{cells}{runs}"
        return re.sub(r"[^A-Za-z0-9]+", "_", raw)

    def copies(self):
        """[(the runner's run record, the workflow's run file)] of every run of the job."""
        return self.family.copies(self)

    def outputs(self):
        return [dst for _src, dst in self.copies()]

    def preflight_args(self):
        """workflow/preflight.py's arguments: the kind, and what the cells need."""
        return self.family.preflight_args(self)

    def command(self):
        return shlex.join([*self.program, *self.argv])

    def runtime_min(self):
        return time_limit_min(self.estimate_s)


@dataclasses.dataclass(frozen=True)
class Publication:
    """A publish step: once every run of (kind, experiment) is there, cmd writes tables."""

    kind: str
    experiment: str
    cmd: str
    tables: tuple


class Family:
    """One experiment family on the campaign interface. A subclass says:

    - kind, runner: its name and the runner's entry script;
    - jobs(config): its workflow jobs (cells x runs cut by config batch_runs);
    - copies(job): [(run record, run file)] of a job's runs;
    - check(src): (why the run record at src is not done or None, the run file's bytes or None
      to copy it as it is);
    - publications(config): its publish steps;
    - pages(config), report_cmd, reported(config): the report rendered from what it publishes.
    """

    kind = ""
    runner = ""
    report_cmd = ""

    def jobs(self, config):
        raise NotImplementedError

    def copies(self, job):
        raise NotImplementedError

    def check(self, src):
        raise NotImplementedError

    def owns(self, src):
        """Whether src (a run record's path in collect.py's arguments) is this family's."""
        return False

    def preflight_args(self, job):
        return self.kind

    def publications(self, config):
        return []

    def pages(self, config):
        return []

    def reported(self, config):
        """Does the workflow render this family's pages (only from tables published in
        docs/results, where the templates are)?"""
        return bool(self.pages(config))


def path(config, key):
    """A path of the workflow configuration, relative to the repository."""
    p = config[key]
    return os.path.normpath(p if os.path.isabs(p) else os.path.join(REPO, p))


def families():
    """Every family, in the order the workflow plans them."""
    from mpqoe import campaign_cc, campaign_pcdc, campaign_sched, campaign_video  # noqa: PLC0415

    return [campaign_video.FAMILY, campaign_sched.FAMILY, campaign_cc.FAMILY, campaign_pcdc.FAMILY]


def family(kind):
    for f in families():
        if f.kind == kind:
            return f
    raise KeyError(kind)


def family_of(src):
    """The family whose run record src is (collect.py's SRC)."""
    for f in families():
        if f.owns(src):
            return f
    return None
