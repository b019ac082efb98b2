"""thr_delay for the end-to-end test: the value that leaves some client fewer admissible
candidate paths than interfaces (e2e_controller.py --thr-delay auto), or, on a discovered
network (whose delays are LLDP's, not the descriptor's), the hop bound that does. Pure functions
over a descriptor dict."""


def simple_path_delays(descriptor, src, dst, max_hops):
    """Sorted delays (ms, sum of link delayMs) of every simple path src -> dst of at most
    max_hops links: the controller's candidates (CandidatePaths) and its path delay."""
    return _simple_path_costs(descriptor, src, dst, max_hops, lambda link: link.get("delayMs"))


def simple_path_hops(descriptor, src, dst, max_hops):
    """Sorted lengths (links) of the same paths: pick_thr_delay over these gives a hop bound
    (the controller's --max-hops) instead of a delay bound."""
    return _simple_path_costs(descriptor, src, dst, max_hops, lambda _link: 1)


def _simple_path_costs(descriptor, src, dst, max_hops, cost):
    adj = {}
    for link in descriptor["links"]:
        d = float(cost(link) or 0)
        adj.setdefault(link["a"], []).append((link["b"], d))
        adj.setdefault(link["b"], []).append((link["a"], d))
    out = []

    def walk(node, seen, total):
        if node == dst:
            out.append(total)
            return
        if len(seen) > max_hops:
            return
        for nxt, d in adj.get(node, []):
            if nxt not in seen:
                walk(nxt, seen | {nxt}, total + d)

    walk(src, {src}, 0.0)
    return sorted(out)


def pick_thr_delay(delays, wanted):
    """A thr_delay (eq. 4) that leaves some client fewer admissible candidates than interfaces
    and every client at least one. Prefers, in order: a client short of paths that still has
    two or more ("a client given 2 paths establishes only 2 subflows"), another
    client that keeps enough, the largest threshold. delays: {client: sorted delays}; wanted:
    {client: interfaces}. None if none."""
    values = sorted({round(d, 6) for ds in delays.values() for d in ds})
    best = None
    for lo, hi in zip(values, values[1:], strict=False):
        thr = round((lo + hi) / 2, 3)
        counts = {c: sum(1 for d in ds if d <= thr) for c, ds in delays.items()}
        if min(counts.values()) < 1 or all(counts[c] >= wanted[c] for c in counts):
            continue
        score = (
            any(2 <= counts[c] < wanted[c] for c in counts),
            any(counts[c] >= wanted[c] for c in counts),
            thr,
        )
        if best is None or score > best[0]:
            best = (score, thr, counts)
    return None if best is None else (best[1], best[2])
