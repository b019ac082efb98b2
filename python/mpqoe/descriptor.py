"""Changing a topology descriptor's link values (a scenario's or an experiment's overrides)."""

import copy


def override_links(descriptor, overrides):
    """A copy of descriptor with overrides applied: {"a-b": {field: value}} per link, the key
    naming the link's ends as the descriptor lists them. ValueError naming an unknown link."""
    d = copy.deepcopy(descriptor)
    keys = {f"{lk['a']}-{lk['b']}": lk for lk in d["links"]}
    for key, values in overrides.items():
        if key not in keys:
            raise ValueError(f"no link {key} in {d['name']} ({', '.join(keys)})")
        keys[key].update(values)
    return d
