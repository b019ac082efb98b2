"""The results at a glance: docs/results/README.md, the index of the results pages, and the
findings block of the project's README, both made from the claims the pages registered
(docs/results/claims/<page>.csv, written by each page's report; mpqoe.claims).

    python3 -m mpqoe.report index [--check]        (this module: --data DIR, --check)

The index's template is docs/results/index.md.in; the README's block is
docs/results/findings.md.in, rendered between the README's markers (FINDINGS_BEGIN, FINDINGS_END).
Their placeholders (docs/results/placeholders.md) are this family's own:

    {{claims PAGE [keys=PATTERN]}}     the table of PAGE's standing claims: claim, verdict,
                                       evidence, link (keys=: those whose key matches)
    {{superseded PAGE}}                the table of PAGE's claims a later round replaced
    {{summary PAGES [keys=PATTERN]}}   "N claims: a agree, d disagree, ..." over the standing
                                       claims of the pages (a comma list)

For a page whose claims are for set-ups (mpqoe.claims.SETUPS), the table has one verdict column
per set-up and the summary one count per set-up.

A page named by a placeholder must have a claims file; a claims file no placeholder names is an
error too, so that no page's verdicts are left out of the index.
"""

import fnmatch
import glob
import os
import sys

from mpqoe import REPO, claims, page
from mpqoe.results import report_cli

WHO = "results_index.py"
RESULTS = os.path.join(REPO, "docs", "results")
COMMAND = "make results  # or: /usr/bin/python3 -m mpqoe.report index"
README = os.path.join(REPO, "README.md")
FINDINGS_BEGIN = "<!-- findings: generated from docs/results/findings.md.in by `make results` -->"
FINDINGS_END = "<!-- end of findings -->"


def load(data):
    """{page: [Claim]} of every claims file under data/claims."""
    out = {}
    for path in sorted(glob.glob(os.path.join(data, "claims", "*.csv"))):
        for c in claims.read(path):
            out.setdefault(c.page, []).append(c)
    return out


def kinds(by_page, named):
    """The index's kinds over by_page; named collects the pages the placeholders name."""

    def of(p):
        if p not in by_page:
            raise KeyError(f"no claims of {p} (known: {', '.join(sorted(by_page))})")
        named.add(p)
        return by_page[p]

    def standing(p, keys=None):
        return [c for c in of(p) if not c.superseded and fnmatch.fnmatchcase(c.key, keys or "*")]

    def superseded(p):
        old = [c for c in of(p) if c.superseded]
        if not old:
            raise KeyError(f"{p} has no superseded claims")
        return claims.table(old)

    k = page.Kinds()
    k.own("claims", "page", lambda page, keys: claims.table(standing(page, keys)), keys="keys")
    k.own("superseded", "page", lambda page: superseded(page))
    k.own("summary", "pages:list", lambda pages, keys: claims.summary(
        [c for p in pages for c in standing(p, keys)]), keys="keys")  # fmt: skip
    return k


def findings_block(text):
    return f"{FINDINGS_BEGIN}\n{text.rstrip()}\n{FINDINGS_END}"


def make(data, readme=README):
    """(out, old, dropped, status) as mpqoe.results.report_cli wants them: out holds the index
    page and the README (readme) with its findings block made anew."""
    by_page = load(data)
    named = set()
    out = {}
    src = os.path.join(data, "index.md.in")
    out[os.path.join(data, "README.md")] = page.render(
        page.read_template(src), kinds(by_page, named), src, WHO, COMMAND
    ).encode()
    fsrc = os.path.join(data, "findings.md.in")
    block = findings_block(page.substitute(page.read_template(fsrc), kinds(by_page, named), fsrc))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    i, j = text.find(FINDINGS_BEGIN), text.find(FINDINGS_END)
    if i < 0 or j < i:
        raise page.PageError(f"{readme}: no '{FINDINGS_BEGIN}' ... '{FINDINGS_END}' block")
    out[readme] = (text[:i] + block + text[j + len(FINDINGS_END) :]).encode()
    left = sorted(set(by_page) - named)
    if left:
        raise page.PageError(f"claims of {', '.join(left)} are in no placeholder of the index")
    n = sum(len(cs) for cs in by_page.values())
    return out, [], [], [f"{n} claims of {len(by_page)} pages"]


def main(argv=None):
    return report_cli(argv, WHO, __doc__.splitlines()[0], RESULTS, make, REPO, COMMAND)


if __name__ == "__main__":
    sys.exit(main())
