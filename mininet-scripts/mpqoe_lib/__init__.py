"""What the project's Python scripts share (stdlib only; Mininet is imported lazily where a
helper needs it).

The package lives in `mininet-scripts/`, beside the Mininet scripts that use it most: a script in
that directory imports it as it is (Python puts the script's directory on `sys.path`); a script
elsewhere (testbed/, floodlight-module/floodlight/, dashjs-harness/lib/harness.py) puts
`mininet-scripts/` on `sys.path` once, where it also finds `mpqoe_topo`. It works read-only (the
testbed guest mounts the repository read-only at /mpqoe) and with both interpreters (Debian's
/usr/bin/python3 for Mininet, any Python >= 3.11 otherwise).

Modules:
- `debian`: modules from Debian packages (scipy, matplotlib), installed on first use as root.
- `stats`: the results reports' statistics (t intervals, exact permutation tests, Welch, Holm,
  Brown-Forsythe spread tests, trends, keep-newest code versions); imports scipy and numpy from
  Debian.
- `results`: what the results reports share besides: strict CSV reading, code versions, the
  template renderer with its placeholders, reproducible PNGs, write-or-check of generated files.
- `files`: atomic writes (temporary file, fsync, rename) and tolerant JSON reads.
- `kernel`: parsers of /proc/net/netstat and /proc/net/mpqoe_<scheduler>.
- `sockopt`: MPTCP socket options decoded with ctypes (MPTCP_FULL_INFO, MPTCP_TCPINFO, ...).
- `proc`: subprocess helpers (run with a timeout, a logged service process, free ports, logs).
- `checks`: the PASS/FAIL check list of the self-tests and a whole-run deadline.
- `rest`: a JSON REST client for the controller's API (standalone or Floodlight).
- `floodlight`: Floodlight with the mpqoe module as a controller process (the user's Floodlight
  jar), and what a network it controls needs before MPTCP traffic (`prepare_network`).
- `cookies`: the decoding of the controller's rule cookies (the Java side is checked against
  it by mininet-scripts/tests/test_contract.py).
- `network`: Open vSwitch start, controller connection state, a Mininet network that removes
  only what it made (bridges, veths, processes; never `mn -c`).
- `flows`: reading the controller's rules back from dumped flows (directions, label stacks).
- `bulk`: the mptcp_bulk.py server as a collector of reports, and report helpers.
- `pcap`: a pcap reader and the TCP handshakes (SYN -> SYN/ACK) in a capture.
- `runs`: the run numbers a runner makes (its --runs, the workflow's --only-runs).
"""
