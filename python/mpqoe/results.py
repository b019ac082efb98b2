"""What the results reports share: committed per-run CSVs read strictly, code versions recorded
and ordered by git, the text of placeholders' values, reproducible figures, and the
write-or-check of every generated file.

Used by testbed/video/video_report.py (the GA and QoMRA papers),
testbed/experiments/sched_report.py (the scheduler papers) and the other reports; all read
only committed data and make everything else from them, so that a number in a page cannot
drift from its data. Tested by mininet-scripts/tests/test_results.py.

The pages are rendered from templates by mpqoe.page, the one placeholder grammar
(docs/results/placeholders.md); this module gives the values' text (fmt, interval_field,
test_field) and the checks behind hand-written words (check_within, check_rising, ...).

Code versions: a run records the commit of the code that made it (`code_version()`:
12 hex digits, `-dirty-<8 hex>` when the work tree differed outside docs/). Runs
published before versions were recorded carry UNRECORDED, older than every recorded version.
`git_newest` orders versions by git ancestry (a dirty version is newer than its commit).
"""

import argparse
import csv
import hashlib
import io
import math
import os
import subprocess
import sys
from collections import Counter

from mpqoe import REPO, files

UNRECORDED = "unrecorded"


class ReportError(Exception):
    """Bad input (data, template, placeholder): one message, exit 1, nothing written."""


def one_kernel(rows, where, key="kernel"):
    """The one kernel (uname -r) the rows of a table ran on ("" when none recorded one);
    ReportError when they name two: a table never mixes kernels."""
    kernels = Counter(r.get(key) or "" for r in rows)
    kernels.pop("", None)
    if len(kernels) > 1:
        named = ", ".join(f"{k} ({n} runs)" for k, n in sorted(kernels.items()))
        raise ReportError(f"{where}: runs of one table on two kernels: {named}")
    return next(iter(kernels), "")


# ---------------------------------------------------------------------------------------------
# Committed CSVs


def read_csv(path, header, grown=False):
    """[(line number, {column: text})] of the CSV at path, None when the file is absent;
    ReportError when its header is not exactly `header` or a row has another field count.
    With grown, a file written before columns were appended to `header` (its header a prefix
    of it) is read too, the missing columns "" (not recorded)."""
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            got = next(reader, None)
            header = list(header)
            width = len(got) if grown and got and got == header[: len(got)] else len(header)
            if got != header[:width]:
                raise ReportError(
                    f"{path}: header must be exactly {','.join(header)}"
                    + (f"; got {','.join(got)}" if got else "; the file is empty")
                )
            rows = []
            for line in reader:
                if not line:
                    continue
                if len(line) != width:
                    raise ReportError(
                        f"{path}:{reader.line_num}: {len(line)} fields, expected {width}"
                    )
                row = dict(zip(header[:width], line, strict=True))
                row.update((col, "") for col in header[width:])
                rows.append((reader.line_num, row))
            return rows
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise ReportError(f"{path}: {e}") from e


def number(text, kind, where, col):
    """int(text) or a finite float(text); ReportError naming where and the column."""
    try:
        v = int(text) if kind is int else float(text)
    except ValueError:
        raise ReportError(
            f"{where}: {col} {text!r} is not {'an integer' if kind is int else 'a number'}"
        ) from None
    if kind is float and not math.isfinite(v):
        raise ReportError(f"{where}: {col} {text!r} is not a finite number")
    return v


def run_metrics(row, cols, need, where, signed=()):
    """{column: float or None} of a run row's metric columns: None on a row whose status is
    not ok and for an empty column; ReportError naming where for an empty column of need on an
    ok row, a value that is not a finite number, or a negative one in a column not in signed."""
    ok = row["status"] == "ok"
    out = {}
    for col in cols:
        if not row[col] or not ok:
            if ok and col in need:
                raise ReportError(f"{where}: {col} is empty on an ok row")
            out[col] = None
            continue
        out[col] = number(row[col], float, where, col)
        if out[col] < 0 and col not in signed:
            raise ReportError(f"{where}: {col} {row[col]} is negative")
    return out


def csv_text(rows, columns):
    """CSV text of rows (dicts) in the given column order, None or absent as empty, "\\n" line
    ends; ValueError for a key that is not a column."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n", extrasaction="raise")
    w.writeheader()
    for r in rows:
        w.writerow({k: "" if v is None else v for k, v in r.items()})
    return buf.getvalue()


def run_key(row):
    """What identifies a run in a committed per-run table: its cell, run number and code
    version (tables without a code_version column: cell and run)."""
    return (row["cell"], str(row["run"]), row.get("code_version", ""))


def merge_runs(old, new, order, identity=run_key):
    """The rows of a committed per-run table after a publish: the old rows (as read) but those
    of a run the new rows have again, then the new rows, sorted by order (a row's sort key;
    the sort is stable, so a run's rows keep their order). So runs published from one store
    join runs published from another (a sweep made over several machines or days), and a run
    published again replaces itself. identity: what makes rows the same run's (run_key)."""
    runs = {identity(r) for r in new}
    return sorted([r for r in old if identity(r) not in runs] + list(new), key=order)


# ---------------------------------------------------------------------------------------------
# Code versions


def _git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=False)


class CellsAndGroups:
    """What a report's result set of cells and groups answers (its `cells` and `groups` lists of
    objects with a `name`, cells with a `version`): a cell or a group by name (None when it has
    none of that name), and how many of its cells each code version made."""

    def cell(self, name):
        return next((c for c in self.cells if c.name == name), None)

    def group(self, name):
        return next((g for g in self.groups if g.name == name), None)

    def versions(self):
        return Counter(c.version for c in self.cells)


def code_version(repo=REPO):
    """The commit, with -dirty-<hash of the diff> when the work tree differs from it (changes
    under docs/, which the reports and the benchmarks write and which runs no code, do not
    count)."""
    head = _git(repo, "rev-parse", "--short=12", "HEAD").stdout.strip() or "unknown"
    diff = _git(repo, "diff", "HEAD", "--", ".", ":(exclude)docs").stdout
    return head + (f"-dirty-{hashlib.sha256(diff.encode()).hexdigest()[:8]}" if diff else "")


def tree_sha256(paths):
    """One sha256 over the contents of files, in the order given (e.g. every source file of
    the probe), so that a change in any of them changes it."""
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        h.update(f"{os.path.basename(p)}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def git_newest(versions, repo=REPO):
    """The newest of several code versions (commit, optionally `-dirty...`; UNRECORDED is older
    than any other) by git ancestry; ValueError when they are not all on one line of history
    or not commits here."""
    versions = set(versions)
    if len(versions) > 1:
        versions.discard(UNRECORDED)
    if len(versions) == 1:
        return next(iter(versions))
    commit = {v: v.partition("-dirty")[0] for v in versions}
    for v in commit.values():
        if _git(repo, "cat-file", "-e", f"{v}^{{commit}}").returncode != 0:
            raise ValueError(f"code version {v} is not a commit of this repository")

    def newer_or_same(v, u):  # v is u or comes after it
        if commit[v] == commit[u]:
            return v == u or (v != commit[v] and u == commit[u])
        return _git(repo, "merge-base", "--is-ancestor", commit[u], commit[v]).returncode == 0

    top = [v for v in versions if all(newer_or_same(v, u) for u in versions)]
    if len(top) != 1:
        raise ValueError(f"code versions {', '.join(sorted(versions))} cannot be ordered")
    return top[0]


def git_contains(version, commit, repo=REPO):
    """Whether the code of a version (commit, optionally `-dirty...`) includes a commit, by git
    ancestry: the commit is the version's or one of its ancestors. UNRECORDED includes none;
    ValueError when either is not a commit here."""
    if version == UNRECORDED:
        return False
    base = version.partition("-dirty")[0]
    for v in (base, commit):
        if _git(repo, "cat-file", "-e", f"{v}^{{commit}}").returncode != 0:
            raise ValueError(f"code version {v} is not a commit of this repository")
    return _git(repo, "merge-base", "--is-ancestor", commit, base).returncode == 0


def short(version):
    """A version as printed: the commit's first 10 digits, `-dirty` kept, UNRECORDED as is."""
    if version == UNRECORDED:
        return version
    commit, dirty, _ = version.partition("-dirty")
    return commit[:10] + (dirty and "-dirty")


def quantile(values, q):
    """The q-quantile (0 <= q <= 1) of values by linear interpolation between the order
    statistics (position q * (n - 1)); ValueError for no values."""
    xs = sorted(values)
    if not xs:
        raise ValueError("no values")
    if not 0 <= q <= 1:
        raise ValueError(f"quantile {q} outside [0, 1]")
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# ---------------------------------------------------------------------------------------------
# Numbers as text


def fmt(v, decimals):
    if v is None:
        return "-"
    s = f"{v:.{decimals}f}"
    return s.lstrip("-") if float(s) == 0 else s  # no "-0"


def fmt_p(p):
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def fmt_diff(v, decimals):
    return "-" if v is None else ("+" if v >= 0 else "") + fmt(v, decimals)


def fmt_interval(iv, decimals):
    """A stats.Interval as "mean [lo, hi]"; "mean (1 run)" without a half-width, "-" without
    runs."""
    if iv.n == 0:
        return "-"
    if iv.half is None:
        return f"{fmt(iv.mean, decimals)} (1 run)"
    return f"{fmt(iv.mean, decimals)} [{fmt(iv.lo, decimals)}, {fmt(iv.hi, decimals)}]"


INTERVAL_FIELDS = ("mean", "ci", "lo", "hi", "interval", "n")
NO_OK = "n/a (no ok run)"


def interval_field(iv, fld, decimals):
    """One field of a stats.Interval as a page's placeholder gives it: n, mean, ci (the
    half-width), lo, hi, or interval ("mean [lo, hi]", the form a sentence quotes, "mean (1 run)"
    with one run); "n/a (...)" where there is no such number. KeyError for any other field."""
    if fld not in INTERVAL_FIELDS:
        raise KeyError(f"field {fld!r} is not {', '.join(INTERVAL_FIELDS)}")
    if fld == "n":
        return str(iv.n)
    if iv.n == 0:
        return NO_OK
    if fld == "mean":
        return fmt(iv.mean, decimals)
    if fld == "interval":
        return fmt_interval(iv, decimals)
    if iv.half is None:
        return "n/a (1 run)"
    return fmt({"ci": iv.half, "lo": iv.lo, "hi": iv.hi}[fld], decimals)


CHECKS = ("higher", "lower", "same")
# checks of the sign of a difference of means alone, tested or not ("switch less on average",
# "the paper's direction" beside a test that does not support it): the second side's mean
# higher or lower than the first's
SIGN_CHECKS = ("meanhigher", "meanlower")


def direction(c):
    """A comparison's other side against its reference (c.diff = reference - other): "lower"
    or "higher"."""
    return "lower" if c.diff > 0 else "higher"


def finding(sig, higher):
    """What a test says, in the words of CHECKS: "higher" or "lower" (the second side against
    the first, or a rising/falling trend) when significant, else "same"."""
    return ("higher" if higher else "lower") if sig else "same"


def check_field(fld, fields):
    """KeyError unless fld is one of a comparison kind's fields or one of CHECKS."""
    if fld not in (*fields, *CHECKS):
        raise KeyError(f"field {fld!r} is not {', '.join(fields)} or a check ({', '.join(CHECKS)})")


def check_words(fld, tested, reason, p, alpha, higher):
    """The check behind a hand-written word (fld one of CHECKS) about a test whose effect is
    positive (the second side higher, the metric rising with the parameter) when higher: ""
    when the test is significant (p < alpha) that way, or (same) tested and not significant;
    else a KeyError saying what the data give, so the page is not made while its words and its
    data disagree."""
    if not tested:
        raise KeyError(f"the words it checks need {fld}, the test is untested ({reason})")
    found = finding(p is not None and p < alpha, higher)
    if found != fld:
        raise KeyError(f"the words it checks need {fld}, the data give {found} (p {fmt_p(p)})")
    return ""


def check_sign(fld, diff, decimals):
    """The check behind a word about the sign of a difference of means, tested or not (fld one
    of SIGN_CHECKS; diff = first side - second side): "" when the second side's mean is higher
    (meanhigher) or lower (meanlower), else a KeyError with the difference. A description, not
    a test."""
    if diff is None:
        raise KeyError(f"the words it checks need {fld}, there is no difference of means")
    if (diff < 0) != (fld == "meanhigher") or diff == 0:
        raise KeyError(
            f"the words it checks need {fld}, the data give a difference (first - second) of "
            f"{fmt_diff(diff, decimals)}"
        )
    return ""


def test_field(c, fld, decimals, ps, alpha):
    """One field of a stats.Comparison as text: diff, sig (yes/no/untested, judged by ps["p"]
    against alpha) or one of the p-values in ps; "n/a (reason)" for an untested one. A field of
    CHECKS checks a hand-written word (check_words): the other side against the reference; one
    of SIGN_CHECKS the sign of the difference alone (check_sign)."""
    if fld in CHECKS:
        return check_words(fld, c.tested, c.reason, ps["p"], alpha, c.tested and c.diff < 0)
    if fld in SIGN_CHECKS:
        return check_sign(fld, c.diff, decimals)
    if fld == "diff":
        return fmt_diff(c.diff, decimals)
    if fld == "sig":
        return (
            ("yes" if ps["p"] is not None and ps["p"] < alpha else "no") if c.tested else "untested"
        )
    if not c.tested:
        return f"n/a ({c.reason})"
    return fmt_p(ps[fld])


# the numbers of a stats.Interval that a check of words holds (check_within, check_rising; n
# behind a run count printed for one cell and said of several): field -> (attribute, how a
# message names the values of a metric)
CHECKED_VALUES = {
    "mean": ("mean", "means of {}"),
    "lo": ("lo", "lower interval ends of {}"),
    "hi": ("hi", "upper interval ends of {}"),
    "ci": ("half", "interval half-widths of {}"),
    "n": ("n", "run counts of {}"),
}


def checked_value(iv, fld, where):
    """The number fld (CHECKED_VALUES) of a stats.Interval; KeyError naming where when it has
    none (no run, or one run for the interval's fields)."""
    if fld not in CHECKED_VALUES:
        raise KeyError(f"field {fld!r} is not {', '.join(CHECKED_VALUES)}")
    value = getattr(iv, CHECKED_VALUES[fld][0]) if iv.n else None
    if value is None:
        raise KeyError(f"{where} has no {fld} (n = {iv.n}), so the words it checks rest on nothing")
    return value


def checked_words(fld, metric):
    """How check_within and check_rising name the values fld (CHECKED_VALUES) of metric."""
    return CHECKED_VALUES[fld][1].format(metric)


def parse_bounds(text, form):
    """ "<lo>..<hi>" as (lo, hi), lo <= hi (hi may be inf, a bound open above); KeyError
    naming the placeholder's form otherwise."""
    lo, sep, hi = text.partition("..")
    try:
        lo, hi = float(lo), float(hi)
    except ValueError:
        raise KeyError(f"bounds {text!r} are not <lo>..<hi> numbers ({form})") from None
    if not sep or not lo <= hi:
        raise KeyError(f"bounds {text!r} are not <lo>..<hi> with lo <= hi ({form})")
    return lo, hi


def check_within(means, lo, hi, metric, decimals, what=None):
    """The check behind a hand-written word of size ("about a third", "busy", "close to the
    lowest quality"), whose bounds the sentence states: "" when every mean of means (name,
    mean) lies in [lo, hi], else a KeyError listing those outside. what names the values in it
    when they are not means of metric (interval ends, ratios). A description, not a test."""
    out = [(n, v) for n, v in means if not lo <= v <= hi]
    if out:
        given = ", ".join(f"{n} {fmt(v, decimals)}" for n, v in out)
        what = what or f"means of {metric}"
        raise KeyError(
            f"the words it checks need {what} in [{lo:g}, {hi:g}], the data give {given}"
        )
    return ""


def check_rising(means, metric, decimals, what=None):
    """The check behind a hand-written ordering of means ("the fewest", "between", "falls with
    every longer segment"): "" when the means (name, mean) rise strictly in the order given,
    else a KeyError with all of them. what names the values when they are not means of metric.
    A description, not a test."""
    if len(means) < 2:
        raise KeyError("an order needs two cells or more")
    if any(not a[1] < b[1] for a, b in zip(means, means[1:], strict=False)):
        given = ", ".join(f"{n} {fmt(v, decimals)}" for n, v in means)
        what = what or f"means of {metric}"
        raise KeyError(f"the words it checks need rising {what}, the data give {given}")
    return ""


def check_extreme(firsts, others, metric, decimals, highest):
    """The check behind "the most", "stalls least": "" when every mean of firsts (name, mean)
    lies above (highest) or below every mean of others, leaving out the firsts themselves; else
    a KeyError with the means that break it. A description, not a test."""
    names = {n for n, _v in firsts}
    rest = [(n, v) for n, v in others if n not in names]
    if not rest:
        raise KeyError("the other cells match nothing but the cells themselves")
    if highest:
        bound = min(v for _n, v in firsts)
        bad = [(n, v) for n, v in rest if v >= bound]
    else:
        bound = max(v for _n, v in firsts)
        bad = [(n, v) for n, v in rest if v <= bound]
    if bad:
        word = "highest" if highest else "lowest"
        given = ", ".join(f"{n} {fmt(v, decimals)}" for n, v in (*firsts, *bad))
        raise KeyError(
            f"the words it checks need the {word} means of {metric}, the data give {given}"
        )
    return ""


# ---------------------------------------------------------------------------------------------
# Figures


def png(plt, fig):
    """PNG bytes of a figure, closed after; no Software/date metadata, so the same data gives
    the same bytes (the check mode compares them)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Writing or checking the generated files


def current(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def differing(out):
    """Paths of out ({path: bytes}) whose file is missing or has other bytes, sorted."""
    return [path for path, b in sorted(out.items()) if current(path) != b]


def apply(out, old, check, root, who, command="make results"):
    """Writes (each atomically) the files of out that differ and removes old (files no longer
    made), or with check writes nothing and lists them. Returns the exit code: 1 when check
    found a difference, else 0. Messages name paths relative to root."""
    changed = differing(out)

    def rel(path):
        return os.path.relpath(path, root)

    if check:
        for path in changed:
            print(f"{who}: differs from the data: {rel(path)}", file=sys.stderr)
        for path in old:
            print(f"{who}: no longer made: {rel(path)}", file=sys.stderr)
        if changed or old:
            print(f"{who}: run `{command}` and commit", file=sys.stderr)
            return 1
        print(f"{who}: {len(out)} files agree with the data")
        return 0
    for path in changed:
        files.write_atomic(path, out[path])
    for path in old:
        os.unlink(path)
    print(f"{who}: {len(changed)} of {len(out)} files written, {len(old)} removed")
    return 0


def report_cli(
    argv, who, description, default_data, make, root=None, command="make results", extend=None
):
    """The command line every results report shares: `--data DIR` (default_data), `--check`.

    make(data) returns (out, old, dropped, status): out maps each file the report makes to its
    text or bytes, old lists files it no longer makes, dropped are lines about runs left out
    (printed on stderr), status lines about each result set (printed unless --check). Then
    apply() writes or checks; messages name paths relative to root (default: the data
    directory). Exit codes: 2 for a missing data directory, 1 for a ReportError or a --check
    that found a difference, else 0.

    extend(parser), when given, adds a report's own options before parsing and returns a
    function of the parsed options: an int it returns is the exit code of a mode of the
    report's own (no page is made then), None goes on to the page."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--data", default=default_data, help="the results data directory")
    p.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 listing the files that differ"
    )
    own = extend(p) if extend else None
    a = p.parse_args(argv)
    if own is not None:
        code = own(a)
        if code is not None:
            return code
    if not os.path.isdir(a.data):
        print(f"{who}: --data: no directory {a.data}", file=sys.stderr)
        return 2
    try:
        out, old, dropped, status = make(a.data)
    except ReportError as e:
        print(f"{who}: {e}", file=sys.stderr)
        return 1
    for line in dropped:
        print(f"{who}: {line}", file=sys.stderr)
    if not a.check:
        for line in status:
            print(f"{who}: {line}")
    out = {path: t.encode() if isinstance(t, str) else t for path, t in out.items()}
    return apply(out, old, a.check, root or a.data, who, command)
