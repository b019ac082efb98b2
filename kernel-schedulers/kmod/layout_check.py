#!/usr/bin/python3
"""Refuse modules whose view of the kernel's private structures is not the kernel's.

The glue reads struct mptcp_sock, mptcp_subflow_context, ... through the net/mptcp/protocol.h
it was compiled with. This compares, for every --struct, the members of that structure as each
module's debug information (DWARF) lays them out with the same structure in the target
kernel's BTF (Debian's headers ship it as the headers' vmlinux), both read by pahole: offset,
bit offset and size of every member, nested anonymous structs and unions flattened. A member
the module knows that the kernel lacks, or one at another place, is one line naming it, and
the exit status is 1. Exit 2 on bad usage or when pahole cannot read a side.

  layout_check.py --kernel-btf VMLINUX [--kernel NAME] --struct S [--struct S ...] MODULE.ko...
"""

import argparse
import re
import subprocess
import sys

# "   u32   stale:1;   /*  96:19  4 */" or "  struct list_head node;  /* 0  16 */";
# a member's name is the last identifier before its bit width, array bounds or the ';'
# (function pointers: the name inside "(*name)")
MEMBER = re.compile(
    r"^(?P<decl>.*?);\s*/\*\s*(?P<off>\d+)(?::\s*(?P<bit>\d+))?\s+(?P<size>\d+)\s*\*/"
)
OPEN = re.compile(r"^\s*(struct|union)\s*\{\s*$")
CLOSE = re.compile(r"^\s*\}\s*(?P<name>\w+)?(\[[^\]]*\])*\s*;\s*/\*\s*(?P<off>\d+)\s+(?P<size>\d+)")


def member_name(decl):
    fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
    if fp:
        return fp.group(1)
    decl = re.sub(r":\s*\d+\s*$", "", decl.strip())  # bit width
    decl = re.sub(r"(\[[^\]]*\])+\s*$", "", decl)  # array bounds
    m = re.search(r"(\w+)\s*$", decl)
    return m.group(1) if m else None


def parse(text):
    """{member path: (offset, bit offset, size)} of the first structure in pahole's output."""
    members = {}
    stack = []  # open inline struct/union blocks: their members, for their name at the close
    lines = text.splitlines()
    if not lines or not re.match(r"^(struct|union) \w+ \{", lines[0]):
        return None
    for line in lines[1:]:
        if OPEN.match(line):
            stack.append({})
            continue
        c = CLOSE.match(line)
        if c and stack:
            inner = stack.pop()
            prefix = (c.group("name") + ".") if c.group("name") else ""
            target = stack[-1] if stack else members
            for k, v in inner.items():
                target[prefix + k] = v
            if c.group("name"):
                target[c.group("name")] = (int(c.group("off")), 0, int(c.group("size")))
            continue
        if re.match(r"^\}", line):  # the structure's own end
            break
        m = MEMBER.match(line)
        if not m or line.lstrip().startswith("/*"):
            continue
        name = member_name(m.group("decl"))
        if not name:
            continue
        target = stack[-1] if stack else members
        target[name] = (int(m.group("off")), int(m.group("bit") or 0), int(m.group("size")))
    return members


def pahole(fmt, path, struct):
    r = subprocess.run(
        ["pahole", "-F", fmt, "-C", struct, path], capture_output=True, text=True, check=False
    )
    return parse(r.stdout) if r.returncode == 0 else None


def fmt(v):
    off, bit, size = v
    return f"offset {off}{':' + str(bit) if bit else ''} size {size}"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel-btf", required=True, help="the kernel's vmlinux (with .BTF)")
    ap.add_argument("--kernel", default="the kernel", help="its name, for the messages")
    ap.add_argument("--struct", action="append", required=True, help="a structure to compare")
    ap.add_argument("modules", nargs="+")
    a = ap.parse_args(argv)

    kernel = {}
    for s in a.struct:
        kernel[s] = pahole("btf", a.kernel_btf, s)
        if kernel[s] is None:
            print(f"layout-check: struct {s} not in the BTF of {a.kernel_btf}", file=sys.stderr)
            return 2
    bad = 0
    checked = 0
    for ko in a.modules:
        for s in a.struct:
            mine = pahole("dwarf", ko, s)
            if mine is None:  # the module does not use this structure
                continue
            checked += 1
            for name, v in mine.items():
                k = kernel[s].get(name)
                if k is None:
                    print(
                        f"layout-check: {ko}: struct {s} member {name} ({fmt(v)}) "
                        f"is not in {a.kernel}"
                    )
                    bad += 1
                elif k != v:
                    print(
                        f"layout-check: {ko}: struct {s} member {name} at {fmt(v)} in the "
                        f"module, {fmt(k)} in {a.kernel}"
                    )
                    bad += 1
    if not checked:
        print(
            "layout-check: no module carries debug information for the structures", file=sys.stderr
        )
        return 2
    if bad:
        print(
            f"layout-check: {bad} member(s) differ from {a.kernel}'s BTF: "
            "protocol.h is not this kernel's; refusing the modules"
        )
        return 1
    print(
        f"layout-check: {', '.join(a.struct)} as in {a.kernel}'s BTF "
        f"({checked} module/structure pairs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
