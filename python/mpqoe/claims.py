"""The reproductions' claims at a glance: every results page registers the verdicts it renders,
and the index (docs/results/README.md) and the project README's findings are made from those
registrations, so that a verdict is decided in one place, on its page's data.

A claim is a paper's statement as a results page tests it: its key on the page (G6, Q2, S1...),
a short text, the verdict the page renders, the test's evidence as the page prints it (a p
value or an interval), and where on the page it stands. A verdict of an earlier round that a
later one replaced is registered as superseded: the index lists it apart and never as a
finding.

A page that tests a paper in more than one set-up (SETUPS: the authors' set-up rebuilt, and
the modern one) registers each claim once per set-up, with that set-up's verdict; the index
then gives each set-up a verdict column and a count of its own. A set-up whose runs are
missing gives its claims "not run yet" or "pending (k of n runs)", counted as such.

A family that knows which code its runs are (the scheduler papers') registers with each claim
the code version(s) of the runs its verdict rests on (`code`), and a claim whose runs were made
before a recorded change to the code its cells ran is registered as awaiting its rerun
("rests on V, before C: rerun pending; its runs give W"; Basis), counted as such and never
as a finding.
"""

import csv
import dataclasses
import io
import os
import re

# How the pages word a verdict, by what it says about the paper; a verdict is matched by its
# first words ("disagrees on bitrate and outage" is a disagreement).
OUTCOMES = (
    ("agrees in part", "agrees in part"),
    ("agrees in direction", "not significant"),
    ("agrees", "agrees"),
    ("met", "agrees"),
    ("disagrees", "disagrees"),
    ("differs", "disagrees"),
    ("consistent", "agrees"),
    ("same as", "agrees"),
    ("not met", "disagrees"),
    ("not significant", "not significant"),
    ("pending", "pending"),
    ("not run yet", "not run yet"),
    ("rests on", "rerun pending"),
    ("n/a", "not decided"),
    ("untested", "not tested"),
    ("not tested", "not tested"),
    ("not testable", "not tested"),
)
ORDER = ("agrees", "agrees in part", "disagrees", "not significant", "not tested", "pending",
         "not run yet", "rerun pending", "not decided")  # fmt: skip

# The set-ups a claim's verdict may be for ({{claim ... setup=NAME}}), in the index's column
# order, with the heading of their column.
SETUPS = {"paper": "the authors' set-up", "modern": "the modern set-up"}


class ClaimError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Claim:
    page: str  # the page, relative to docs/results ("ga-paper.md")
    key: str  # the claim's key on its page ("G6")
    text: str  # what the paper claims, short
    verdict: str  # as the page renders it, without emphasis
    evidence: str = ""  # the test's p or interval, as the page prints it
    anchor: str = ""  # a heading's anchor on the page, "" for the page's top
    superseded: bool = False
    setup: str = ""  # the set-up the verdict is for (a key of SETUPS), "" for a page's only one
    code: str = ""  # the code version(s) of the runs the verdict rests on, space-separated

    @property
    def outcome(self):
        """The verdict's class in ORDER; ClaimError for wording OUTCOMES does not know."""
        v = self.verdict.strip().lower()
        if re.match(r"agrees at [^;]*;", v):  # per size: agrees at some, not at others
            return "agrees in part"
        for words, outcome in OUTCOMES:
            if re.match(re.escape(words) + r"(?![\w-])", v):
                return outcome
        raise ClaimError(f"{self.page} {self.key}: verdict {self.verdict!r} is none of "
                         + ", ".join(w for w, _ in OUTCOMES))  # fmt: skip

    @property
    def link(self):
        return self.page + (f"#{self.anchor}" if self.anchor else "")


@dataclasses.dataclass(frozen=True)
class Basis:
    """What a verdict rests on, as its family knows it: the code versions of the runs of the
    cells its comparisons use, and the recorded changes to those cells' modules (their
    commits) that the runs were made before. A standing verdict with such changes is not a
    finding: its claim must say that it awaits a rerun (Basis.pending), and say so no longer
    once the runs it rests on include every change."""

    versions: tuple
    lacking: tuple = ()

    @property
    def stale(self):
        return bool(self.lacking)

    @property
    def code(self):
        return " ".join(self.versions)

    def pending(self, word):
        """The verdict of a claim awaiting its rerun, with the word its runs give: "rests on V,
        before C: rerun pending; its runs give W"."""
        return (f"rests on {', '.join(self.versions)}, before {', '.join(self.lacking)}: "
                f"rerun pending; its runs give {word}")  # fmt: skip


class Register:
    """The claims of one rendering, in the order the pages register them."""

    def __init__(self):
        self._claims = {}

    def add(self, claim):
        """Registers a claim; ClaimError for a verdict of unknown wording, an unknown set-up, a
        page whose claims name a set-up only in part, or a key its page registered already
        for the same set-up with another verdict (the same claim rendered twice is fine)."""
        claim.outcome  # noqa: B018 - refuses an unknown verdict now, where the page is known
        if claim.setup and claim.setup not in SETUPS:
            raise ClaimError(f"{claim.page} {claim.key}: set-up {claim.setup!r} is none of "
                             + ", ".join(SETUPS))  # fmt: skip
        if any(c.page == claim.page and bool(c.setup) != bool(claim.setup)
               for c in self._claims.values()):  # fmt: skip
            raise ClaimError(f"{claim.page} {claim.key}: a page's claims name a set-up all or none")
        old = self._claims.setdefault((claim.page, claim.key, claim.setup), claim)
        if old != claim:
            raise ClaimError(f"{claim.page} {claim.key}: registered twice, differently")
        return claim

    def claims(self, page=None, superseded=False):
        return [c for c in self._claims.values()
                if (page is None or c.page == page) and c.superseded == superseded]  # fmt: skip

    def pages(self):
        return list(dict.fromkeys(c.page for c in self._claims.values()))

    def files(self, results_dir):
        """{path: CSV text} of every page that registered claims (path())."""
        return {path(results_dir, p): csv_text(c for c in self._claims.values() if c.page == p)
                for p in self.pages()}  # fmt: skip


FIELDS = ("page", "key", "text", "verdict", "evidence", "anchor", "superseded", "setup", "code")


def csv_text(claims):
    """The claims as a CSV (FIELDS): what a family writes beside its pages, claims/<page
    without .md>.csv under docs/results, for the index."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(FIELDS)
    for c in claims:
        w.writerow([c.page, c.key, c.text, c.verdict, c.evidence, c.anchor,
                    "yes" if c.superseded else "no", c.setup, c.code])  # fmt: skip
    return buf.getvalue()


def path(results_dir, page):
    """Where a page's claims CSV lies (page: its name under docs/results, e.g. ga-paper.md)."""
    return os.path.join(results_dir, "claims", page.removesuffix(".md") + ".csv")


def read(path_):
    """The claims of a CSV written by csv_text; ClaimError for another header or a bad row."""
    with open(path_, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows or tuple(rows[0]) != FIELDS:
        raise ClaimError(f"{path_}: not a claims file (header {', '.join(FIELDS)})")
    out = []
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(FIELDS) or r[6] not in ("yes", "no") or r[7] not in ("", *SETUPS):
            raise ClaimError(f"{path_}:{i}: want {len(FIELDS)} fields, superseded yes or no, "
                             f"set-up empty or one of {', '.join(SETUPS)}")  # fmt: skip
        c = Claim(*r[:6], superseded=r[6] == "yes", setup=r[7], code=r[8])
        c.outcome  # noqa: B018 - refuses an unknown verdict
        out.append(c)
    return out


def _cell(text):
    return re.sub(r"\s+", " ", text.replace("|", "\\|")).strip()


def setups(claims):
    """The set-ups the claims are for, in SETUPS' order; [] when none names one."""
    named = {c.setup for c in claims}
    return [s for s in SETUPS if s in named]


def _verdict_word(c):
    """A claim's verdict as a table shows it: in bold where it stands (plain when superseded
    or awaiting a rerun)."""
    plain = c.superseded or c.outcome == "rerun pending"
    return _cell(c.verdict) if plain else f"**{_cell(c.verdict)}**"


def _verdict_cell(c):
    verdict = _verdict_word(c)
    return f"{verdict} ({_cell(c.evidence)})" if c.evidence else verdict


def table(claims):
    """A Markdown table of claims: claim, verdict, evidence, the code version(s) of the runs
    the verdicts rest on (when a claim names one), link; the verdict in bold only when it
    stands (a superseded one, or one awaiting a rerun, is plain). Claims for set-ups give one
    row per key with a verdict column per set-up (the evidence beside each verdict; "-" where
    a set-up has no verdict for the key)."""
    claims = list(claims)
    named = setups(claims)
    if named:
        return _setup_table(claims, named)
    code = any(c.code for c in claims)
    head = ["claim", "verdict", "evidence", *(["code"] if code else []), "where"]
    rows = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for c in claims:
        cells = [f"{c.key} {_cell(c.text)}", _verdict_word(c), _cell(c.evidence)]
        cells += [" ".join(f"`{v}`" for v in c.code.split())] if code else []
        rows.append("| " + " | ".join(cells) + f" | [{c.page}]({c.link}) |")
    return "\n".join(rows)


def _setup_table(claims, named):
    by_key = {}
    for c in claims:
        by_key.setdefault((c.page, c.key), {})[c.setup] = c
    head = " | ".join(SETUPS[s] for s in named)
    rows = [f"| claim | {head} | where |", "|---" * (len(named) + 2) + "|"]
    for per in by_key.values():
        first = next(iter(per.values()))
        cells = " | ".join(_verdict_cell(per[s]) if s in per else "-" for s in named)
        rows.append(f"| {first.key} {_cell(first.text)} | {cells} | [{first.page}]({first.link}) |")
    return "\n".join(rows)


def counts(claims):
    """{outcome: n} in ORDER, outcomes with no claim left out."""
    n = {o: 0 for o in ORDER}
    for c in claims:
        n[c.outcome] += 1
    return {o: k for o, k in n.items() if k}


def _summary(claims):
    words = {"agrees": "agree", "agrees in part": "agree in part", "disagrees": "disagree"}
    n = counts(claims)
    parts = [f"{k} {words.get(o, o)}" for o, k in n.items()]
    return f"{len(claims)} claim{'s' if len(claims) != 1 else ''}: " + ", ".join(parts)


def summary(claims):
    """One line of a set of standing claims: "N claims: a agree, d disagree, ..."; for claims
    of set-ups one such count per set-up, "the authors' set-up: N claims: ...; the modern
    set-up: ..."."""
    claims = list(claims)
    named = setups(claims)
    if not named:
        return _summary(claims)
    return "; ".join(f"{SETUPS[s]}: {_summary([c for c in claims if c.setup == s])}"
                     for s in named)  # fmt: skip
