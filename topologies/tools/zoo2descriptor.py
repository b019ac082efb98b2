#!/usr/bin/env python3
"""Convert an Internet Topology Zoo GML file into an mpqoe topology descriptor.

Nodes with ``Internal 0`` are dropped, as are edges touching them. Switch names are
the node labels without commas; links keep GML edge order (duplicates removed),
their delay is the great-circle distance between the two cities at 200 km/ms and
their capacity comes from the Zoo link label (for example "45 Mbps DS-3").

Usage:
    python3 topologies/tools/zoo2descriptor.py GML --name compuserve --server Columbus \
        [--scenario SCENARIO.json] > out.json

The descriptor is written to standard output (JSON, 2-space indentation). Errors are
reported as one line on standard error with exit status 2.
"""

import argparse
import json
import math
import re
import sys

EARTH_RADIUS_KM = 6371.0
FIBRE_KM_PER_MS = 200.0
SERVER_INTERFACES = 3
NAME_RE = re.compile(r"^[a-z0-9-]+$")
SPEED_RE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([KMG])bps", re.IGNORECASE)
SPEED_SCALE = {"k": 0.001, "m": 1.0, "g": 1000.0}

# Where a Zoo graph is used by a paper we reproduce, said in the description.
KNOWN_USES = {
    "Compuserve": "as in the GA path-selection paper of Bikas & Sayit",
}
ZOO_CITATION = "S. Knight et al., The Internet Topology Zoo, IEEE JSAC 2011"


class InputError(Exception):
    """A problem with the input files or flags; reported as one line, exit 2."""


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(2)


# ---------------------------------------------------------------- GML reading

TOKEN_RE = re.compile(r'\s*(?:(\[)|(\])|"([^"]*)"|([^\s\[\]"]+))')


def tokenize(text):
    pos = 0
    tokens = []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN_RE.match(text, pos)
        if m is None or m.end() == pos:
            raise InputError(f"GML syntax error at character {pos}")
        pos = m.end()
        if m.group(1):
            tokens.append(("[", None))
        elif m.group(2):
            tokens.append(("]", None))
        elif m.group(3) is not None:
            tokens.append(("str", m.group(3)))
        else:
            tokens.append(("atom", m.group(4)))
    return tokens


def atom_value(text):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_list(tokens, i, depth):
    """Parse ``key value`` pairs until the matching ']' (or end at depth 0)."""
    items = []
    while i < len(tokens):
        kind, val = tokens[i]
        if kind == "]":
            if depth == 0:
                raise InputError("GML syntax error: unbalanced ']'")
            return items, i + 1
        if kind != "atom":
            raise InputError(f"GML syntax error: expected a key, got {val!r}")
        key = val
        if i + 1 >= len(tokens):
            raise InputError(f"GML syntax error: key {key!r} has no value")
        vkind, vval = tokens[i + 1]
        if vkind == "[":
            sub, i = parse_list(tokens, i + 2, depth + 1)
            items.append((key, sub))
        elif vkind == "]":
            raise InputError(f"GML syntax error: key {key!r} has no value")
        else:
            items.append((key, vval if vkind == "str" else atom_value(vval)))
            i += 2
    if depth != 0:
        raise InputError("GML syntax error: missing ']'")
    return items, i


def read_gml(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    items, _ = parse_list(tokenize(text), 0, 0)
    graphs = [v for k, v in items if k == "graph" and isinstance(v, list)]
    if len(graphs) != 1:
        raise InputError(f"{path}: expected one 'graph [ ... ]' block")
    graph = graphs[0]
    attrs = {k: v for k, v in graph if not isinstance(v, list)}
    nodes = [dict(v) for k, v in graph if k == "node" and isinstance(v, list)]
    edges = [dict(v) for k, v in graph if k == "edge" and isinstance(v, list)]
    return attrs, nodes, edges


# ---------------------------------------------------------------- conversion


def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def link_capacity(edge):
    for key in ("LinkSpeedRaw", "LinkLabel", "LinkSpeed", "LinkNote"):
        value = edge.get(key)
        if isinstance(value, str):
            m = SPEED_RE.search(value)
            if m:
                return float(m.group(1)) * SPEED_SCALE[m.group(2).lower()]
    raise InputError(f"edge {edge.get('source')}-{edge.get('target')}: no link speed in its label")


def convert(path, name, server_switch, scenario):
    attrs, nodes, edges = read_gml(path)
    network = str(attrs.get("Network", attrs.get("label", "unnamed")))

    internal = {}
    order = []
    external = 0
    for node in nodes:
        if "id" not in node or "label" not in node:
            raise InputError(f"{path}: a node lacks 'id' or 'label'")
        if node.get("Internal", 1) == 0:
            external += 1
            continue
        if "Latitude" not in node or "Longitude" not in node:
            raise InputError(f"{path}: node {node['label']!r} has no coordinates")
        switch = str(node["label"]).replace(",", "")
        if switch in order:
            raise InputError(f"{path}: two internal nodes are named {switch!r}")
        internal[node["id"]] = (switch, float(node["Latitude"]), float(node["Longitude"]))
        order.append(switch)

    links = []
    seen = set()
    capacities = set()
    for edge in edges:
        a, b = edge.get("source"), edge.get("target")
        if a not in internal or b not in internal or a == b:
            continue
        key = frozenset((a, b))
        if key in seen:
            continue
        seen.add(key)
        (na, lat_a, lon_a), (nb, lat_b, lon_b) = internal[a], internal[b]
        capacity = link_capacity(edge)
        capacities.add(capacity)
        delay = haversine_km(lat_a, lon_a, lat_b, lon_b) / FIBRE_KM_PER_MS
        links.append(
            {
                "a": na,
                "b": nb,
                "capacityMbps": capacity,
                "delayMs": round(delay, 3),
                "lossPct": 0.0,
            }
        )

    if server_switch not in order:
        raise InputError(f"--server {server_switch!r} is not a switch of {path}")

    labels = sorted({e.get("LinkLabel") for e in edges if isinstance(e.get("LinkLabel"), str)})
    if len(capacities) == 1 and len(labels) == 1:
        capacity_text = f'capacities from the Zoo\'s "{labels[0]}" link label'
    else:
        capacity_text = "capacities from the Zoo's link labels"
    use = KNOWN_USES.get(network)
    description = (
        f"Derived from the Internet Topology Zoo {network} graph "
        f"({ZOO_CITATION}) without its {external} external nodes: "
        f"{len(order)} switches / {len(links)} links"
        + (f", {use}" if use else "")
        + ". One-way delays are the great-circle distance between the cities at "
        f"{FIBRE_KM_PER_MS:g} km/ms (light in fibre); {capacity_text}."
    )

    descriptor = {
        "schema": 1,
        "name": name,
        "description": description,
        "approximation": False,
        "switches": [{"name": s} for s in order],
        "links": links,
        "hosts": [
            {
                "name": "server",
                "role": "server",
                "interfaces": [
                    {
                        "ip": f"10.0.{k}.1",
                        "mac": f"02:00:00:00:{k:02x}:01",
                        "switch": server_switch,
                        "capacityMbps": 1000.0,
                        "delayMs": 0.0,
                    }
                    for k in range(1, SERVER_INTERFACES + 1)
                ],
            }
        ],
        "clientSwitches": [s for s in order if s != server_switch],
    }
    if scenario is not None:
        descriptor["scenario"] = scenario
    return descriptor


def read_scenario(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: invalid JSON: {e}") from None
    if not isinstance(data, dict) or "delayMs" not in data or "bandwidthMbps" not in data:
        raise InputError(f"{path}: expected an object with 'delayMs' and 'bandwidthMbps'")
    return data


def main(argv=None):
    parser = OneLineParser(
        prog="zoo2descriptor.py",
        description="Convert a Topology Zoo GML file into an mpqoe topology descriptor.",
    )
    parser.add_argument("gml", help="Topology Zoo .gml file")
    parser.add_argument("--name", required=True, help="descriptor name, [a-z0-9-]+")
    parser.add_argument("--server", required=True, help="switch (label) the server attaches to")
    parser.add_argument("--scenario", help="JSON file holding the 'scenario' block")
    args = parser.parse_args(argv)
    try:
        if not NAME_RE.match(args.name):
            raise InputError(f"--name {args.name!r} must match [a-z0-9-]+")
        scenario = read_scenario(args.scenario) if args.scenario else None
        descriptor = convert(args.gml, args.name, args.server, scenario)
    except InputError as e:
        sys.stderr.write(f"{parser.prog}: error: {e}\n")
        return 2
    sys.stdout.write(json.dumps(descriptor, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
