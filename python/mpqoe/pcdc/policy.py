"""PCDC's decisions as pure functions (Chen et al., "Improvement and Implementation of a
Multi-Path Management Algorithm based on MPTCP", Sections II and IV).

A *pair* is (local address, remote address): one possible subflow of a connection, what the
paper calls a subflow between a client ISP and a server ISP. Tested by tests/test_policy.py on
hand-computed cases; the daemon (pcdcd) and the measurement tool (mpqoe.pcdc.impact) only gather
inputs and apply what these return.

- Impact factor (Section II, equation 1): the share of the throughput lost when subflow i stops
  taking part: 1 - (what the connection carried in the T after subflow i was removed) /
  (what it carried in the T before, with every subflow). The paper sums throughput samples over
  t = 0..T and T+1..2T; with windows of equal length that ratio is the ratio of the bytes
  carried in them, which is what we measure (no sampling interval to choose).
- Optional set P (Section IV, step 2): the pairs with Omega > 0, in increasing order of RTT
  (ties by the pair, so that the order is total); the others are standby. The paper's text
  is silent on Omega = 0, and its equation 2 keeps such a subflow selectable; we count it as
  standby (a departure, docs/pcdc.md: the subflow does not help).
- Data classes (Section IV, step 3, equation 2): L1 for S <= 512 KiB uses P[0]; L2 for
  512 KiB < S <= 1024 KiB uses P[0], P[1]; L3 uses all of P.
- Online classes (ours: a path manager does not know S): a connection starts in L1 and moves
  up once the bytes it carried exceed a class's upper bound (512 KiB -> L2, 1024 KiB -> L3),
  since S >= what was carried. An application's size hint puts it directly in the class of
  the hinted size; bytes carried beyond the hint still move it up (classes never go down).
"""

from dataclasses import dataclass

KIB = 1024
L1_MAX = 512 * KIB
L2_MAX = 1024 * KIB
L1, L2, L3 = 1, 2, 3


def impact_factor(bytes_with, bytes_without):
    """Omega_i of equation 1 from the bytes carried in the window with every subflow and in
    the equally long window without subflow i; ValueError when the first is not positive."""
    if bytes_with <= 0:
        raise ValueError("no bytes carried with every subflow: impact factor undefined")
    if bytes_without < 0:
        raise ValueError("negative byte count")
    return 1.0 - bytes_without / bytes_with


def impact_factor_series(tp, tp_without):
    """Omega_i of equation 1 from two equally long series of throughput samples."""
    if len(tp) != len(tp_without) or not tp:
        raise ValueError("the two windows must have the same, non-zero number of samples")
    return impact_factor(sum(tp), sum(tp_without))


def size_class(size):
    """The class of a transfer of size bytes (equation 2): L1, L2 or L3."""
    if size < 0:
        raise ValueError(f"negative size {size}")
    if size <= L1_MAX:
        return L1
    if size <= L2_MAX:
        return L2
    return L3


def online_class(carried, hint=None):
    """The class of a connection that has carried `carried` bytes so far, with an optional
    size hint from the application (module docstring)."""
    cls = size_class(carried)
    if hint is not None:
        cls = max(cls, size_class(hint))
    return cls


@dataclass(frozen=True)
class PairStats:
    """What the path manager knows of a pair: its mean impact factor and mean RTT (ms)."""

    omega: float
    rtt_ms: float


def optional_set(table):
    """(P, standby) of table {pair: PairStats}: P the pairs with Omega > 0 by increasing RTT."""
    p = sorted(
        (pair for pair, s in table.items() if s.omega > 0), key=lambda q: (table[q].rtt_ms, q)
    )
    standby = sorted(pair for pair, s in table.items() if not s.omega > 0)
    return p, standby


def select(p, cls):
    """Equation 2: the pairs of P that a connection of class cls uses."""
    if cls == L1:
        return p[:1]
    if cls == L2:
        return p[:2]
    if cls == L3:
        return list(p)
    raise ValueError(f"unknown class {cls}")


def pcdc_target(table, cls, available, settled=True):
    """The pairs a connection of class cls should have: equation 2 over P restricted to the
    pairs this connection can use (`available`: its local addresses x the remote addresses
    it knows). Pairs without a measurement are standby.

    While the connection may still learn remote addresses (settled False: the peer's
    ADD_ADDR may be on its way), only the pairs that stay in the target whatever it learns:
    those of equation 2 over the whole table's P that are available. A pair of that choice
    which the connection cannot use yet is then waited for, not replaced by the next pair of
    P, which would be opened only to be closed when the address arrives. (Any available pair
    among the first k of P is among the first k of P restricted, so this is a subset of the
    settled target, and equal to it once every pair of the choice is available.)"""
    if not settled:
        p, _ = optional_set(table)
        return [q for q in select(p, cls) if q in available]
    p, _ = optional_set({q: s for q, s in table.items() if q in available})
    return select(p, cls)


def fullmesh_target(available):
    """FullMesh: one subflow per available pair."""
    return sorted(available)


@dataclass(frozen=True)
class Plan:
    """What to do on one connection: pairs to open, opened subflows (keys) to close, and
    pairs of the target that hold kept from being opened."""

    create: tuple
    destroy: tuple
    held: tuple = ()


def plan(target, initial_pair, opened, pending, failed, others=0, hold=()):
    """The actions that bring a connection to its target pairs.

    initial_pair: the pair of the application's first subflow (never closed by us);
    opened: {subflow key: pair} of established subflows this path manager opened;
    pending: pairs asked for and not yet established; failed: pairs that failed on this
    connection (not asked for again); others: how many established subflows someone else
    opened (never closed here, but they keep the connection alive). Subflows we opened whose
    pair left the target are closed, unless that would leave the connection without an
    established subflow (the initial one counts while it is alive: initial_pair is None once
    it closed). Pairs of target in hold are not opened (Plan.held lists those missing);
    being in the target, they are not closed either."""
    have = {initial_pair} | set(opened.values()) | set(pending) | set(failed)
    create = tuple(q for q in target if q not in have and q not in hold)
    held = tuple(q for q in target if q not in have and q in hold)
    live = (0 if initial_pair is None else 1) + len(opened) + others
    destroy = []
    for key, pair in sorted(opened.items()):
        if pair not in target and live - len(destroy) > 1:
            destroy.append(key)
    return Plan(create, tuple(destroy), held)
