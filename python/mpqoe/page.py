"""The results pages' one placeholder grammar: its parser, the kinds every family shares, and
the rendering of a template into a page (docs/results/placeholders.md says the same for the
writers of templates).

A template (`<page>.md.in`, or a fragment it includes) is Markdown with placeholders, each on
one line:

    {{kind arg ... key=value ...}}

- `kind`: lower-case letters, digits, `_` and `-`, starting with a letter; it names what the
  placeholder gives. Every kind is declared with a signature (`Kind`): its positional
  parameters, in order, and the keys it accepts.
- Arguments are separated by white space; an argument is a word without white space, braces
  or `=`, or text in double quotes (`"every client finished"`: the quotes are not part of
  it). Positional arguments come first; `key=value` options may follow in any order, each
  key once. A parameter with a default may be left out (only at the end).
- Argument types (a signature's `name:type`): `word` (the default), `list` (comma-separated
  words, none empty: `lia,olia,reno`), `range` (`lo..hi`, numbers, lo <= hi, hi may be
  `inf`), `span` (`first-last`, integers, first <= last: run numbers), `int`, `number`, a
  choice (`mean|ci|lo|hi|n`: one of the words), and `window`.
- `window`: a claim's time window in seconds of a run, `lo..hi` with 0 <= lo < hi (hi may be
  `inf`), the value of the shared key `during=` (`{{cmp ... during=0..50}}`: the claim holds
  in seconds 0 to 50 only). A kind that takes it must test the window's data alone; when the
  data of the window are missing it renders what the family renders for an untested claim
  ("not tested") instead of testing something else.
- `{{include FILE}}`, alone on its line, is replaced by the text of FILE (relative to the
  including file, read the same way) before anything else.

Shared kinds (SHARED) mean the same and take the same arguments in every family; a family
supplies their functions (`Kinds.shared`) and declares its own kinds with their signatures
(`Kinds.own`). A placeholder of an unknown kind, with too few or too many arguments, an
unknown or repeated key, a value of the wrong type, unpaired braces, or a function that raises
KeyError or PageError, is an error naming the template, the line and the placeholder; every
error of a template is reported together and nothing is written.
"""

import math
import os
import re
from dataclasses import dataclass, field
from functools import partial

from mpqoe.claims import SETUPS, Claim, ClaimError, Register
from mpqoe.results import ReportError

# one placeholder: what lies between the braces (no brace inside)
PLACEHOLDER = re.compile(r"\{\{([^{}]*)\}\}")
KIND_NAME = re.compile(r"[a-z][a-z0-9_-]*")
INCLUDE = re.compile(r"^\{\{include\s+([^\s{}]+)\s*\}\}$", re.M)
REQUIRED = object()


class PageError(ReportError):
    """A bad template or placeholder: one message (every error of the template), nothing
    written."""


def no_window(during, what):
    """For a kind whose data have no time series: KeyError when a placeholder states a time
    window (during=), which the data cannot test."""
    if during is not None:
        raise KeyError(f"during={during.lo:g}..{during.hi:g}: {what} have no time series")


@dataclass(frozen=True)
class Range:
    """A `lo..hi` argument; lo <= hi, hi may be inf."""

    lo: float
    hi: float

    def __contains__(self, v):
        return self.lo <= v <= self.hi

    def __str__(self):
        return f"[{self.lo:g}, {self.hi:g}]"


@dataclass(frozen=True)
class Span:
    """A `first-last` argument of integers (run numbers), first <= last."""

    first: int
    last: int

    def __iter__(self):
        return iter(range(self.first, self.last + 1))

    def __str__(self):
        return f"{self.first}-{self.last}"


@dataclass(frozen=True)
class Window:
    """A claim's time window, `during=lo..hi`: seconds lo to hi of a run, 0 <= lo < hi."""

    lo: float
    hi: float

    def __str__(self):
        return f"{self.lo:g}-{self.hi:g} s"


def _number(text):
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if math.isnan(v):
        raise ValueError(f"{text!r} is not a number")
    return v


def _range(text):
    lo, sep, hi = text.partition("..")
    if not sep:
        raise ValueError(f"{text!r} is not <lo>..<hi>")
    lo, hi = _number(lo), _number(hi)
    if not lo <= hi:
        raise ValueError(f"{text!r} is not <lo>..<hi> with lo <= hi")
    return Range(lo, hi)


def _span(text):
    a, sep, b = text.partition("-")
    if not (sep and a.isdigit() and b.isdigit() and int(a) <= int(b)):
        raise ValueError(f"{text!r} is not <first>-<last> (integers, first <= last)")
    return Span(int(a), int(b))


def _window(text):
    lo, sep, hi = text.partition("..")
    if not sep:
        raise ValueError(f"window {text!r} is not <from>..<to> (seconds)")
    lo, hi = _number(lo), _number(hi)
    if not 0 <= lo < hi or math.isinf(lo):
        raise ValueError(f"window {text!r} is not <from>..<to> with 0 <= from < to (seconds)")
    return Window(lo, hi)


def _list(text):
    items = text.split(",")
    if any(not i for i in items):
        raise ValueError(f"{text!r} is not a comma-separated list of words")
    return items


def _int(text):
    if not re.fullmatch(r"-?\d+", text):
        raise ValueError(f"{text!r} is not an integer")
    return int(text)


TYPES = {
    "word": str,
    "list": _list,
    "range": _range,
    "span": _span,
    "window": _window,
    "int": _int,
    "number": _number,
}


@dataclass(frozen=True)
class Param:
    name: str
    convert: object
    default: object = REQUIRED
    form: str = "word"

    def value(self, text):
        return self.convert(text)


def _choice(words):
    def convert(text):
        if text not in words:
            raise ValueError(f"{text!r} is not {'|'.join(words)}")
        return text

    return convert


def parse_params(spec):
    """The parameters of a signature text: `name[:type][=default] ...`, type a name of TYPES
    or a choice `a|b|c`; ValueError for a malformed one (a programming error)."""
    out = []
    for item in spec.split():
        decl, eq, default = item.partition("=")
        name, _, form = decl.partition(":")
        form = form or "word"
        if "|" in form:
            convert = _choice(tuple(form.split("|")))
        elif form in TYPES:
            convert = TYPES[form]
        else:
            raise ValueError(f"parameter {item!r}: unknown type {form!r}")
        p = Param(name, convert, convert(default) if eq else REQUIRED, form)
        if out and out[-1].default is not REQUIRED and p.default is REQUIRED:
            raise ValueError(f"parameter {name!r}: a required parameter after an optional one")
        out.append(p)
    return tuple(out)


@dataclass(frozen=True)
class Kind:
    """A placeholder kind: its name, positional parameters, keys (options) and the function
    that renders it, called with each parameter and key as a keyword argument (a key left out
    is its default, None unless the signature gives one)."""

    name: str
    params: tuple
    keys: tuple
    fn: object
    doc: str = ""

    @property
    def form(self):
        pos = " ".join(
            p.name.upper() if p.default is REQUIRED else f"[{p.name.upper()}]" for p in self.params
        )
        keys = " ".join(f"[{k.name}=...]" for k in self.keys)
        return " ".join(x for x in ("{{" + self.name, pos, keys) if x) + "}}"

    def bind(self, args, options):
        """The keyword arguments of fn for the positional args and options ({key: text});
        ValueError naming the form when they do not fit."""
        need = sum(1 for p in self.params if p.default is REQUIRED)
        if not need <= len(args) <= len(self.params):
            want = str(need) if need == len(self.params) else f"{need} to {len(self.params)}"
            raise ValueError(f"{len(args)} argument(s), {self.name} takes {want}: {self.form}")
        bound = {}
        for p, text in zip(self.params, args, strict=False):
            try:
                bound[p.name] = p.value(text)
            except ValueError as e:
                raise ValueError(f"{p.name.upper()}: {e} ({self.form})") from None
        for p in self.params[len(args) :]:
            bound[p.name] = p.default
        keys = {k.name: k for k in self.keys}
        for key, text in options.items():
            if key not in keys:
                known = ", ".join(keys) or "none"
                raise ValueError(f"unknown key {key!r} (keys of {self.name}: {known})")
            try:
                bound[key] = keys[key].value(text)
            except ValueError as e:
                raise ValueError(f"{key}=: {e} ({self.form})") from None
        for k in self.keys:
            bound.setdefault(k.name, None if k.default is REQUIRED else k.default)
        return bound


# The kinds every family shares: one signature each (positional parameters; keys). SUBJECT
# names what a family measures (a cell, a run set, a topology with its algorithm: the family
# says), METRIC one of its metrics; FIELD the part of a value or a test to give.
SHARED = {
    # a field of a metric's interval over the runs of a subject: mean, ci (half-width), lo,
    # hi, interval, n, ... (the family's fields)
    "value": ("subject metric field=mean", "during:window"),
    # a subject's test against the family's reference on a metric: diff, p, p_raw, welch, sig,
    # or a check of a word (higher, lower, same: nothing when the test agrees, else an error);
    # during=: the claim's time window
    "cmp": ("subject metric field", "during:window"),
    # two subjects compared with each other on a metric (the second against the first)
    "pair": ("first second metric field", "during:window"),
    # the check behind a word of size: nothing when every subject's field of the metric lies
    # in the range (subjects may be patterns), else an error; runs=: the single runs of that
    # span instead of the mean over the runs
    "within": ("subjects:list metric bounds:range field=mean", "runs:span during:window"),
    # the check behind an order: nothing when the subjects' field of the metric rises strictly
    # in the order named, else an error
    "rising": ("subjects:list metric field=mean", "during:window"),
    # a verdict the data make (a claim's or a target's): its word; with check=WORD the check
    # behind words that state it (nothing when the verdict is WORD, else an error). Where the
    # family's basis (Kinds.basis) finds the runs lacking a recorded change of their code, the
    # word is "rests on V, before C: rerun pending; its runs give W" (checks check W)
    "verdict": ("subject", "check"),
    # a trend: the subject's metric along the family's parameter (Spearman's rho): rho, p, n,
    # sig, or a check of a word (higher: a significant rise, lower: a fall, same: neither)
    "trend": ("subject metric field", "during:window"),
    # a claim of a paper as the page tests it (mpqoe.claims): its key and short text, and its
    # verdict: says=WORDS, words the page states and checks beside them, or verdict=PLACEHOLDER,
    # a placeholder of the page (in quotes, without braces) that gives it; evidence=PLACEHOLDER
    # the test's p or interval (label= the word before it); superseded=yes for a verdict a later
    # round replaced; setup=NAME the set-up the verdict is for (mpqoe.claims.SETUPS: a claim
    # tested in several set-ups is registered once in each). Gives the verdict, in bold where
    # it stands; the index lists it. In a family that knows the code of its runs (Kinds.basis)
    # the verdict names the code version(s) it rests on, and a standing verdict whose runs
    # lack a recorded change of their code must be marked stale=yes (and only such a one): it
    # then reads "rests on V, before C: rerun pending; its runs give W", plain
    "claim": (
        "key text",
        f"says verdict evidence label at setup:{'|'.join(SETUPS)} superseded:yes|no=no "
        "stale:yes|no=no",
    ),
    # a generated table (a family's table names)
    "table": ("name", ""),
    # a generated figure (its Markdown image link)
    "figure": ("name", ""),
}


class Kinds:
    """The kinds of one family's pages: shared ones (SHARED's signatures) and its own. Every
    family has `claim`: the claims its pages render are registered in `claims`
    (mpqoe.claims.Register), the page being the template's name without `.in`."""

    def __init__(self):
        self.kinds = {}
        self.claims = Register()
        self.page = ""
        # a family's basis(verdict placeholder text) -> mpqoe.claims.Basis: the code its
        # verdicts rest on (None: the family's verdicts name none)
        self.basis = None
        self._data = {}  # the family's own functions of kinds wrapped here (verdict)
        # the verdict placeholders (text without braces) of the claims rendered so far that
        # await a rerun (stale=yes), for a family's plan of the reruns
        self.pending = []
        self.shared("claim", self._claim)

    def _nested(self, text):
        """The text a placeholder of these kinds gives, written without its braces (a verdict:
        the data's, stale or not)."""
        kind, args, options = tokenize(text)
        if kind in self._data:
            k = self.kinds[kind]
            return self._data[kind](**k.bind(args, options))
        return _give(self.kinds, kind, args, options)

    def _verdict(self, fn, subject, check):
        """The shared verdict kind over a family's fn: the data's verdict, or, where the
        family's basis finds its runs lacking a recorded change of their code (and no words
        are checked), "rests on V, before C: rerun pending; its runs give W"."""
        word = fn(subject=subject, check=check)
        basis = self.basis(f"verdict {subject}") if self.basis and check is None else None
        return basis.pending(word) if basis is not None and basis.stale else word

    def _claim(self, key, text, says, verdict, evidence, label, at, setup, superseded, stale):
        if (says is None) == (verdict is None):
            raise ValueError("a claim takes one of says= and verdict=")
        words = says if says is not None else self._nested(verdict)
        plain = words.replace("**", "").strip()
        basis = self.basis(verdict) if verdict is not None and self.basis else None
        pending = self._stale(key, basis, superseded == "yes", stale == "yes")
        ev = self._nested(evidence) if evidence else ""
        c = Claim(self.page, key, text, basis.pending(plain) if pending else plain,
                  f"{label} {ev}" if label and ev else ev, at or "", superseded == "yes",
                  setup or "", basis.code if basis else "")  # fmt: skip
        try:
            self.claims.add(c)
        except ClaimError as e:
            raise ValueError(str(e)) from None
        if pending:
            self.pending.append(verdict)
            return c.verdict
        shown = plain if c.superseded else f"**{plain}**"
        return shown + (" at code " + ", ".join(f"`{v}`" for v in basis.versions) if basis else "")

    @staticmethod
    def _stale(key, basis, superseded, marked):
        """Whether the claim's verdict awaits a rerun; ValueError for a standing verdict on
        runs that lack a recorded change of their code but is not marked stale=yes, and for a
        mark where there is no such change (the mark goes once the reruns land)."""
        if marked and (basis is None or superseded):
            raise ValueError(f"{key}: stale=yes marks only a standing verdict on known code")
        if basis is None or superseded:
            return False
        if basis.stale and not marked:
            raise ValueError(
                f"{key}: its runs ({', '.join(basis.versions)}) were made before recorded "
                f"change(s) {', '.join(basis.lacking)} of their code: rerun its cells, or mark "
                "the claim stale=yes until then"
            )
        if marked and not basis.stale:
            raise ValueError(
                f"{key}: marked stale=yes, but its runs ({', '.join(basis.versions)}) include "
                "every recorded change of their code: remove the mark"
            )
        return marked

    def _add(self, name, params, keys, fn):
        if not KIND_NAME.fullmatch(name) or name == "include":
            raise ValueError(f"kind {name!r}: not a kind name")
        if name in self.kinds:
            raise ValueError(f"kind {name!r} declared twice")
        self.kinds[name] = Kind(name, parse_params(params), parse_params(keys), fn)

    def shared(self, name, fn):
        """Declares a kind of SHARED, with its one signature."""
        if name not in SHARED:
            raise ValueError(f"kind {name!r} is not shared ({', '.join(SHARED)})")
        params, keys = SHARED[name]
        if name == "verdict":
            self._data[name] = fn
            fn = partial(self._verdict, fn)
        self._add(name, params, keys, fn)
        return self

    def own(self, name, params, fn, keys=""):
        """Declares a family's own kind: params and keys as `name[:type][=default] ...`."""
        if name in SHARED:
            raise ValueError(f"kind {name!r} is shared: declare it with shared()")
        self._add(name, params, keys, fn)
        return self

    def text(self, name, value):
        """A kind without arguments that gives a fixed text ({{status}}, {{kernel}})."""
        return self.own(name, "", lambda: value)


@dataclass
class Placeholder:
    line: int
    text: str  # as written, braces included
    kind: str = ""
    args: list = field(default_factory=list)
    options: dict = field(default_factory=dict)


TOKEN = re.compile(r'(?:"[^"]*"|[^\s"])+')


def _unquote(text):
    return re.sub(r'"([^"]*)"', r"\1", text)


def tokenize(inner):
    """(kind, positional args, {key: value}) of what lies between a placeholder's braces;
    ValueError for an empty one, a bad kind name, an unpaired quote, a positional argument
    after a key, a repeated key or an empty value. Double quotes make one argument of text
    with spaces (`error="*Broken pipe*"`); they are not part of it."""
    tokens = TOKEN.findall(inner)
    if TOKEN.sub("", inner).strip():
        raise ValueError("unpaired double quote")
    if not tokens:
        raise ValueError("empty placeholder")
    kind, *rest = tokens
    if not KIND_NAME.fullmatch(kind):
        raise ValueError(f"{kind!r} is not a kind (lower-case letters, digits, _, -)")
    args, options = [], {}
    for w in rest:
        eq, quote = w.find("="), w.find('"')
        if eq >= 0 and (quote < 0 or eq < quote):
            key, raw = w[:eq], w[eq + 1 :]
            value = _unquote(raw)
            if not KIND_NAME.fullmatch(key):
                raise ValueError(f"{w!r}: {key!r} is not a key")
            if not raw or "=" in raw.split('"')[0]:
                raise ValueError(f"{w!r}: key {key} has no value")
            if key in options:
                raise ValueError(f"key {key!r} given twice")
            options[key] = value
        elif options:
            raise ValueError(f"positional argument {w!r} after a key=value")
        else:
            args.append(_unquote(w))
    return kind, args, options


def parse(template):
    """(placeholders, errors) of a template: each well-formed placeholder with its line, and
    "line N: ..." for each malformed one and each unpaired brace pair."""
    found, errors = [], []
    for i, line in enumerate(template.splitlines(), 1):
        for m in PLACEHOLDER.finditer(line):
            p = Placeholder(i, m.group(0))
            try:
                p.kind, p.args, p.options = tokenize(m.group(1))
            except ValueError as e:
                errors.append(f"line {i}: {m.group(0)}: {e}")
                continue
            found.append(p)
        rest = PLACEHOLDER.sub("", line)
        if "{{" in rest or "}}" in rest:
            errors.append(f"line {i}: unpaired braces (a placeholder must be on one line)")
    return found, errors


def check(template, kinds):
    """Errors of a template against kinds ({name: Kind}) without rendering: "line N: ..." for
    each malformed placeholder, unknown kind or argument that does not fit its signature."""
    found, errors = parse(template)
    for p in found:
        try:
            _kind(kinds, p.kind).bind(p.args, p.options)
        except ValueError as e:
            errors.append(f"line {p.line}: {p.text}: {e}")
    return sorted(errors, key=lambda e: int(e.split(":")[0].split()[1]))


def _kind(kinds, name):
    k = kinds.get(name)
    if k is None:
        raise ValueError(f"unknown kind {name!r} ({', '.join(sorted(kinds))})")
    return k


def _give(kinds, kind, args, options):
    """What a placeholder (its kind, arguments and options) gives: its kind's function called
    with them; ValueError when they do not fit its signature."""
    k = _kind(kinds, kind)
    return k.fn(**k.bind(args, options))


def substitute(template, kinds, source):
    """The template with every placeholder replaced by its kind's text; PageError naming
    source, line and placeholder of every bad one (nothing is substituted then)."""
    if isinstance(kinds, Kinds):
        kinds.page = os.path.basename(source).removesuffix(".in")
        kinds = kinds.kinds
    errors = []
    lines = template.split("\n")
    out = []
    _, bad = parse(template)
    errors += bad
    for i, line in enumerate(lines, 1):

        def sub(m, i=i):
            text = m.group(0)
            try:
                kind, args, options = tokenize(m.group(1))
            except ValueError:
                return ""  # reported by parse
            try:
                value = _give(kinds, kind, args, options)
            except (ValueError, KeyError, PageError) as e:
                errors.append(f"line {i}: {text}: {e.args[0] if e.args else e}")
                return ""
            if not isinstance(value, str):
                raise TypeError(f"{source}:{i}: {text} gave {type(value).__name__}, not text")
            return value

        out.append(PLACEHOLDER.sub(sub, line))
    if errors:
        errors = sorted(set(errors), key=lambda e: int(e.split(":")[0].split()[1]))
        raise PageError(f"{source}: bad placeholder(s):\n  " + "\n  ".join(errors))
    return "\n".join(out)


def render(template, kinds, source, generator, command):
    """The page of a template: a generated-file comment naming its generator, its template and
    the command that makes it, then the template with every placeholder substituted."""
    body = substitute(template, kinds, source)
    name = os.path.basename(source)
    return f"<!-- Generated by {generator} from {name}: edit that, then {command} -->\n" + body


def read_template(path, _seen=()):
    """A template's text with each line `{{include FILE}}` replaced by that file's text (a path
    relative to the including file, itself read this way). PageError for a missing file or an
    include that includes itself."""
    if os.path.abspath(path) in _seen:
        raise PageError(f"template {path}: includes itself")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise PageError(f"template {path}: {e.strerror}") from e
    seen = (*_seen, os.path.abspath(path))

    def include(m):
        inner = os.path.join(os.path.dirname(path), m.group(1))
        return read_template(inner, seen).rstrip("\n")

    return INCLUDE.sub(include, text)
