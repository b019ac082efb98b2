"""A controller's discovered topology beside the descriptor that Mininet was built from.

Without a descriptor the controller names what it discovered itself (TopologyBuilder): switches
`s<dpid>`, like Mininet's bridges, and hosts `client-K` / `server-K`, with only the addresses it
has seen. The tests speak the descriptor's names: these helpers match the two (switches by bridge
name, hosts by address) and rename the controller's answers. Pure functions over decoded JSON and
a DescriptorTopo's `names` and `hosts_spec`.
"""


def host_names(rest_hosts, hosts_spec):
    """{discovered host name: descriptor host name}: a discovered host is the descriptor host
    with the same role whose addresses include all of its own (it may not have seen them all)."""
    out = {}
    for h in rest_hosts:
        ips = {i["ip"] for i in h.get("interfaces", [])}
        for d in hosts_spec:
            same_role = str(d.get("role", "client")).upper() == h.get("role")
            if ips and same_role and ips <= {i["ip"] for i in d["interfaces"]}:
                out[h["name"]] = d["name"]
                break
    return out


def missing_hosts(rest_hosts, hosts_spec, server_ip):
    """What the discovered hosts still lack (empty when complete): every client with all of its
    interfaces, and the server with server_ip (the address the clients talk to)."""
    seen = {}
    for h in rest_hosts:
        name = host_names([h], hosts_spec).get(h["name"])
        if name is not None:
            seen.setdefault(name, set()).update(i["ip"] for i in h["interfaces"])
    missing = []
    for d in hosts_spec:
        want = {i["ip"] for i in d["interfaces"]}
        if d.get("role") == "server":
            want = want & {server_ip}
        lacks = sorted(want - seen.get(d["name"], set()))
        if lacks:
            missing.append(f"{d['name']} ({', '.join(lacks)})")
    return missing


def names(rest_topology, topo):
    """{discovered name: descriptor name} of switches (bridge names, topo.names) and hosts."""
    out = {bridge: name for name, bridge in topo.names.items()}
    out.update(host_names(rest_topology.get("hosts", []), topo.hosts_spec))
    return out


def rename(obj, mapping):
    """obj (decoded JSON) with every string value that is a key of mapping replaced by its value
    (dict keys stay)."""
    if isinstance(obj, str):
        return mapping.get(obj, obj)
    if isinstance(obj, list):
        return [rename(x, mapping) for x in obj]
    if isinstance(obj, dict):
        return {k: rename(v, mapping) for k, v in obj.items()}
    return obj
