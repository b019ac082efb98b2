"""Reading the controller's rules back from dumped flows (mpqoe.topo.flow_counters dicts):
per-direction rule sets of a cookie, and segment routing's label stacks walked hop by hop."""

import re

_OUTPUT = re.compile(r"(?:^|,)output:(\d+)")
_SET_LABEL = re.compile(r"set_field:(\d+)->mpls_label")


def direction(flow, client_ip):
    """'up' (client to server), 'down' or None, from a rule's IPv4 match."""
    m = flow["match"]
    if m.get("nw_src") == client_ip:
        return "up"
    if m.get("nw_dst") == client_ip:
        return "down"
    return None


def cookie_switches(flows, cookie, client_ip, counted=True):
    """{'up': {bridge}, 'down': {bridge}} holding rules with this cookie (that counted packets,
    with counted). flows: {bridge: [flow dict]}."""
    out = {"up": set(), "down": set()}
    for b, fl in flows.items():
        for f in fl:
            if f["cookie"] != cookie or (counted and f["n_packets"] <= 0):
                continue
            d = direction(f, client_ip)
            if d:
                out[d].add(b)
    return out


def pushed_labels(actions):
    """The label stack (top first) that an edge rule's actions push, or None."""
    stack = None
    for a in actions.split(","):
        if a.startswith("push_mpls"):
            stack = [None, *(stack or [])]
        m = _SET_LABEL.match(a)
        if m and stack:
            stack[0] = int(m.group(1))
    return stack


def _first(rules, pred):
    return next((f for f in rules if pred(f)), None)


def label_walk(flows, topo, start, labels, dst_ip):
    """Follows `labels` from bridge `start`: at every later switch table 0's rule for MPLS
    frames, then table 1's rule for the top label (popping it where the rule pops), out of the
    port the rule names to the next switch of topo's port plan; once the stack is empty, the
    delivery rule for dst_ip. Returns (bridges visited, [(bridge, rule)] used, problem or None)."""
    by_bridge = {v: k for k, v in topo.names.items()}
    visited, used, stack, cur, first = [start], [], list(labels), start, True
    for _ in range(32):
        fl = flows[cur]
        if not stack:
            rule = _first(fl, lambda f: f["table"] == 0 and f["match"].get("nw_dst") == dst_ip)
            if rule is None:
                return visited, used, f"{cur}: plain IPv4 to {dst_ip} and no delivery rule"
            used.append((cur, rule))
            return visited, used, None
        if not first:
            rule = _first(
                fl,
                lambda f: (
                    f["table"] == 0 and f["match"].get("mpls") and "mpls_label" not in f["match"]
                ),
            )
            if rule is None:
                return visited, used, f"{cur}: no table-0 rule for MPLS frames"
            used.append((cur, rule))
        first = False
        bos = "1" if len(stack) == 1 else "0"
        top = str(stack[0])
        rule = _first(
            fl,
            lambda f, top=top, bos=bos: (
                f["table"] == 1
                and f["match"].get("mpls_label") == top
                and f["match"].get("mpls_bos", bos) == bos
            ),
        )
        if rule is None:
            return visited, used, f"{cur}: no table-1 rule for label {stack[0]} bos={bos}"
        used.append((cur, rule))
        if "pop_mpls" in rule["actions"]:
            stack.pop(0)
        m = _OUTPUT.search(rule["actions"])
        if not m:
            return visited, used, f"{cur}: label {rule['match'].get('mpls_label')} has no output"
        port = int(m.group(1))
        p = next((p for p in topo.plan[by_bridge[cur]] if p.port == port), None)
        if p is None or p.kind != "link":
            return visited, used, f"{cur}: label rule outputs to port {port}, not a link"
        cur = topo.names[p.peer]
        visited.append(cur)
    return visited, used, "label walk does not end"


def edge_walk(flows, topo, cookie, client_ip, d, edge, dst_ip):
    """Segment routing, one direction `d` ('up' or 'down') of one subflow: the cookie's rule on
    its edge switch `edge`, the label stack that rule pushes, and that stack walked
    (label_walk) towards dst_ip. Returns (labels or None, bridges visited, problem or None,
    rules of the walk that counted nothing)."""
    rule = _first(
        flows.get(edge, []), lambda f: f["cookie"] == cookie and direction(f, client_ip) == d
    )
    labels = pushed_labels(rule["actions"]) if rule else None
    if not labels:
        why = f"{edge}: edge rule pushes no label stack: {rule['actions']}" if rule else None
        return None, [edge], why or f"{edge}: no edge rule", []
    visited, used, problem = label_walk(flows, topo, edge, labels, dst_ip)
    return labels, visited, problem, idle_rules(used)


def idle_rules(used):
    """The rules of a walk that counted no packet, as text."""
    return [f"{b}:{r['match']} {r['actions']}" for b, r in used if r["n_packets"] <= 0]


def link_pairs(path):
    """The links of a path of node names, each as a frozenset of its two ends."""
    return {frozenset(p) for p in zip(path, path[1:], strict=False)}


def fmt_path(p):
    return "none" if p is None else " > ".join(p)
