"""How much a network, or the paths chosen in it, can carry toward a set of clients.

Links are full duplex with their capacity in each direction (Mininet's shaped links are), and
the video flows from the server to the clients, so a path written from its client's switch to
the server's is used from its last switch to its first. Two numbers bound what the clients of a
run can receive together:

- `cut_capacity`: the maximum flow from the server's switch to the clients' switches over every
  link (SciPy's `maximum_flow`, capacities in whole kbit/s): what the network allows whatever
  the paths;
- `path_capacity`: the most the chosen paths carry together when each link carries at most its
  capacity and, optionally, each client receives at most its demand (a linear program over the
  paths' rates, SciPy's HiGHS): what the selection allows with perfect sharing. Without a
  demand it is at most the cut (both to 1 kbit/s).

Both ignore TCP (windows, round trips, losses) and the players: bounds, not predictions.
"""

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_flow


def arcs(path):
    """The directed links a path (client's switch first) carries the video over: (from, to)."""
    return [(b, a) for a, b in zip(path, path[1:], strict=False)]


def path_capacity(links, clients, demand=None):
    """Mbit/s the clients' paths carry together at most: clients is a list of each client's
    paths (switch lists, client's switch first), links {frozenset({a, b}): capacity in Mbit/s};
    each link carries at most its capacity in each direction and, with demand (Mbit/s), each
    client receives at most that much over all its paths. Rounded to 1 kbit/s, as the cut.
    ValueError for a path over a missing link or a link of no positive capacity."""
    paths, owner = [], []
    for k, ps in enumerate(clients):
        for p in ps:
            if len(p) > 1:
                paths.append(p)
                owner.append(k)
    for p in paths:
        for a, b in zip(p, p[1:], strict=False):
            if not links.get(frozenset((a, b)), 0) > 0:
                why = "no link" if frozenset((a, b)) not in links else "no positive capacity on"
                raise ValueError(f"path {'>'.join(p)}: {why} {a}-{b}")
    if not paths:
        return 0.0
    used = sorted({a for p in paths for a in arcs(p)})
    row = {a: i for i, a in enumerate(used)}
    bounds = [links[frozenset(a)] for a in used]
    share = np.zeros((len(used), len(paths)))
    for j, p in enumerate(paths):
        for a in arcs(p):
            share[row[a], j] = 1.0
    if demand is not None:
        per_client = np.zeros((len(clients), len(paths)))
        for j, k in enumerate(owner):
            per_client[k, j] = 1.0
        share = np.vstack([share, per_client])
        bounds += [demand] * len(clients)
    res = linprog(-np.ones(len(paths)), A_ub=share, b_ub=bounds, bounds=(0, None), method="highs")
    if res.status != 0:
        raise ValueError(f"the paths' linear program failed: {res.message}")
    return round(float(-res.fun), 3)


def cut_capacity(links, server, clients):
    """Mbit/s that can flow from the server's switch to the clients' switches over every link
    (the maximum flow, to 1 kbit/s); ValueError for a switch without links."""
    nodes = sorted({s for link in links for s in link})
    index = {s: i for i, s in enumerate(nodes)}
    for s in (server, *clients):
        if s not in index:
            raise ValueError(f"switch {s} has no link")
    sink = len(nodes)  # joins the clients' switches
    rows, cols, kbps = [], [], []
    for link, cap in links.items():
        a, b = sorted(link)
        for u, v in ((a, b), (b, a)):
            rows.append(index[u])
            cols.append(index[v])
            kbps.append(round(cap * 1000))
    big = sum(kbps) + 1
    for c in set(clients):
        if c == server:
            raise ValueError(f"switch {server} is the server's and a client's")
        rows.append(index[c])
        cols.append(sink)
        kbps.append(big)
    graph = csr_matrix((np.array(kbps, dtype=np.int32), (rows, cols)), shape=(sink + 1, sink + 1))
    return maximum_flow(graph, index[server], sink).flow_value / 1000
