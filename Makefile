# mpqoe: the two set-up commands are `make demo` and `make test`; both install what they need.
SHELL := /bin/bash
MVN := mvn -B -ntp -Dstyle.color=never
PY := python3
JAR := floodlight-module/cli/target/mpqoe.jar
# KERNEL=<spec>: the Debian kernel the modules, the guests and the experiments are for (default:
# the newest Debian 12 build of 6.12; docs/kernel-schedulers.md, "Kernels")
ifdef KERNEL
export MPQOE_KERNEL := $(KERNEL)
endif

.PHONY: demo test deps java-deps py-deps py-pkg build java-test lint topology-check topology-routes \
	bench format clean \
	mininet-deps mininet-selftest e2e kernel-core-test kernel-schedulers kernel-matrix testbed \
	testbed-smoke \
	testbed-probe dashjs-harness experiments-test experiments experiments-report py-unit \
	video-deps video-e2e reproduce pcdc workflow-deps workflow-test slurm-deps slurm-test

## demo: the main job on embedded defaults: CompuServe with the GA paper's drawn links in the
## testbed guest (netem delays, Open vSwitch), the standalone controller choosing paths, 3 dash.js
## players in Chromium joining 4 s apart, a 60 s video, the GA against none and fd-bw, one run
## each, in the set-up of the paper's authors (their dash.js 2.5.0 player, 2 s segments, their
## wiring, minRTT, 256 KB); prints both QoE metric families and writes
## build/video/demo/summary.png (docs/results/ga-paper.md). PLAYER=modern: dash.js 5.2.1.
PLAYER ?= paper
demo: build video-deps
	/usr/bin/python3 testbed/video/video_run.py --experiment demo --retries 1 --player $(PLAYER)

## video-deps: what the video experiments need: the testbed guest, the scheduler modules (DAPS),
## the DASH harness (Chromium, ffmpeg, dash.js) and Debian's matplotlib and scipy
video-deps: testbed py-pkg
	$(MAKE) -C kernel-schedulers modules
	$(MAKE) -C dashjs-harness deps
	@/usr/bin/python3 -c 'import matplotlib, scipy' 2>/dev/null || \
	  { apt-get update -qq && apt-get install -y -qq python3-matplotlib python3-scipy; }

## video-e2e: the video experiment's reduced case in the guest: 2 clients, a 20 s video, ga and
## none; every run must pass its checks (clients finished, paths assigned, subflow packets only
## on their paths' switches, the players' requests in the server's log, MPTCP throughout), at
## its first or second attempt (as in the sweeps, a failed run is made again; what failed prints)
video-e2e: build video-deps
	rm -rf build/video-ci
	/usr/bin/python3 testbed/video/video_run.py --experiment ci --retries 1 --results build/video-ci

## reproduce: the GA and QoMRA papers' sweeps at this machine's scale through the workflow
## (workflow/Snakefile, docs/workflow.md: plan and duration; RUNS=10 VIDEO=540 MAX_CLIENTS=30
## on a bigger machine) and the tables, figures and pages of docs/results; resumable: run
## it again to finish what is missing. CORES (2) is Snakemake's --cores; one guest at a time.
RUNS ?= 5
VIDEO ?= 120
MAX_CLIENTS ?= 5
CORES ?= 2
reproduce: build video-deps workflow-deps
	$(MAKE) -C kernel-schedulers modules
	$(SNAKEMAKE) --profile workflow/profiles/local --cores $(CORES) \
	  --config runs=$(RUNS) video=$(VIDEO) max_clients=$(MAX_CLIENTS)

# Snakemake and its Slurm executor plugin (workflow/requirements.txt, all pinned) in a venv
# of Debian's Python; remade when the requirements change.
SNAKE_VENV := build/snakemake
SNAKEMAKE := $(SNAKE_VENV)/bin/snakemake -s workflow/Snakefile
workflow-deps: $(SNAKE_VENV)/stamp py-pkg
	@$(call PKG_OK,$(SNAKE_VENV)/bin/python) || $(SNAKE_VENV)/bin/python $(PKG_INSTALL)
$(SNAKE_VENV)/stamp: workflow/requirements.txt
	rm -rf $(SNAKE_VENV)
	/usr/bin/python3 -m venv $(SNAKE_VENV)
	$(SNAKE_VENV)/bin/pip install --quiet --disable-pip-version-check -r workflow/requirements.txt
	@touch $@

## workflow-test: the workflow's plan through Snakemake's dry run: the jobs of a small sweep
## with one job per network and one per run, a resumed sweep, the plan against the runners'
## own; and the workflow run for real over a store that holds its runs already (node check,
## runner, run files, tables; a finished sweep stays done at another job size; an incomplete
## run is not done). No guest is booted; root, the guest and the modules built; about 20 s
workflow-test: workflow-deps testbed
	$(MAKE) -C kernel-schedulers modules smoke-deps
	/usr/bin/python3 -m unittest discover -s workflow -p 'test_*.py'

## slurm-test: a small sweep (2 cells x 2 runs of 10 s) through the Slurm profile on a
## one-node Slurm cluster the test starts on this machine (Debian's slurm-wlm and munge), and
## the same sweep locally; their merged tables must match and every run be complete (root,
## boots 5 guests: about 8 min; not part of make test, CI runs it after, .ci/run);
## SLURM_TEST=--no-guest: all but the sweeps that boot guests (about 2 min)
SLURM_TEST ?=
slurm-test: workflow-deps slurm-deps
	$(MAKE) -C kernel-schedulers modules
	$(MAKE) -C testbed
	workflow/slurm-test/run.sh $(SLURM_TEST)

# Debian's Slurm daemons and munge for the test cluster (workflow/slurm-test/cluster.sh)
slurm-deps:
	@{ command -v slurmctld && command -v slurmd && command -v munged; } >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; }

## test: unit and property tests, formatting and lint, descriptor reproducibility, Mininet/OVS
## self-test, the controller's end-to-end test, the kernel modules and the testbed under QEMU, the
## video probe and the DASH harness (as root: installs what they need from Debian and npm)
test: deps
	rm -rf floodlight-module/*/target/surefire-reports  # the summary must count this run only
	$(MVN) install
	$(MAKE) lint topology-check py-unit kernel-schedulers mininet-selftest e2e testbed-probe \
	  pcdc testbed-smoke experiments-test workflow-test dashjs-harness video-unit results-check \
	  video-e2e
	$(PY) tools/surefire_summary.py floodlight-module

deps: java-deps py-deps

# JDK 17 and Maven come with the machine image; install them from Debian where they do not.
java-deps:
	@command -v javac >/dev/null && javac -version 2>&1 | grep -q ' 17' || \
	  { apt-get update -qq && apt-get install -y -qq openjdk-17-jdk-headless; }
	@command -v mvn >/dev/null || { apt-get update -qq && apt-get install -y -qq maven; }

# The project's Python package (python/, import name mpqoe), editable, into Debian's interpreter
# (Mininet, the runners, the reports) and into $(PY) where that is another one: every script,
# test and runner imports it from this checkout (docs/architecture.md, "Python"). Installed
# again when the installed one belongs to another checkout.
PKG_OK = $(1) -c 'import sys, mpqoe; sys.exit(mpqoe.REPO != sys.argv[1])' $(CURDIR) 2>/dev/null
PKG_INSTALL := -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
	--break-system-packages -e $(CURDIR)/python
py-pkg:
	@$(call PKG_OK,/usr/bin/python3) || /usr/bin/python3 $(PKG_INSTALL)
	@$(call PKG_OK,$(PY)) || $(PY) $(PKG_INSTALL)

py-deps: py-pkg
	@$(PY) -m ruff --version >/dev/null 2>&1 || $(PY) -m pip install --quiet --disable-pip-version-check ruff

# Maven runs only when a source, resource or pom is newer than the CLI jar (a cached `make demo`
# then starts at once); it installs every module's jar, the Floodlight module's too.
JAVA_INPUTS := pom.xml $(shell find floodlight-module -path '*/target' -prune -o -type f \
  \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -print)
build: $(JAR)
$(JAR): $(JAVA_INPUTS) | java-deps
	$(MVN) -q -DskipTests install
	@touch $@

PY_DIRS := python topologies/tools tools mininet-scripts floodlight-module/floodlight floodlight-module/bench \
	testbed dashjs-harness pcdc kernel-schedulers/cc-fairness kernel-schedulers/kmod workflow

lint: py-deps
	$(MVN) -q spotless:check
	$(PY) -m ruff check $(PY_DIRS)
	$(PY) -m ruff format --check $(PY_DIRS)

# The committed descriptors must be exactly what their generators make, and so must the
# forwarding tables in topologies/routes/ (the Java core's routes, which the scheduler
# experiments' guest installs: it has no Java). The Zoo file lives in ../shared (beside the
# clone in CI); without it that one check is skipped, loudly.
ZOO_GML := ../shared/data/topology-zoo/Compuserve.gml
topology-check: build
	@if [[ -f $(ZOO_GML) ]]; then \
	  $(PY) topologies/tools/zoo2descriptor.py $(ZOO_GML) --name compuserve --server Columbus \
	    --scenario topologies/tools/compuserve-scenario.json \
	    | diff -u topologies/compuserve.json - && echo "compuserve.json: reproducible"; \
	else echo "compuserve.json: SKIPPED, $(ZOO_GML) not found"; fi
	java -jar $(JAR) topology jellyfish --seed 1 | diff -u topologies/jellyfish20.json - \
	  && echo "jellyfish20.json: reproducible"
	@for f in topologies/routes/*.json; do \
	  java -jar $(JAR) topology routes topologies/$$(basename $$f) | diff -u $$f - \
	    || { echo "$$f is stale: make topology-routes"; exit 1; }; \
	  echo "$$f: reproducible"; \
	done

## topology-routes: rewrite the forwarding tables in topologies/routes/ from their descriptors
## (a new one: bin/mpqoe topology routes topologies/NAME.json -o topologies/routes/NAME.json)
topology-routes: build
	@for f in topologies/routes/*.json; do \
	  java -jar $(JAR) topology routes topologies/$$(basename $$f) -o $$f && echo "$$f"; \
	done

## bench: every measurement of docs/perf.md (JMH per-join and control-plane times, the GA
## variants' CPU time per join, optimality gap, tuning, rules per client, the end-to-end test's
## set-up times) and of docs/algorithms.md's comparison into docs/perf/data, then both pages
## (minutes; as root, since the end-to-end runs need Mininet, on an otherwise idle machine)
BENCH_REPORT := /usr/bin/python3 floodlight-module/bench/perf_report.py
bench: build py-pkg
	$(BENCH_REPORT) --record all
	$(BENCH_REPORT)

# Mininet and Open vSwitch from Debian (userspace datapath: this kernel has no OVS module).
MININET_PKGS := mininet openvswitch-switch iputils-ping iperf3 ethtool tcpdump
mininet-deps: py-pkg
	@dpkg -s $(MININET_PKGS) >/dev/null 2>&1 || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(MININET_PKGS); }
	@/usr/share/openvswitch/scripts/ovs-ctl status >/dev/null 2>&1 || \
	  /usr/share/openvswitch/scripts/ovs-ctl start >/dev/null 2>&1 || true
	@ovs-vsctl show >/dev/null

## py-unit: unit tests of the mpqoe package's library (parsers, atomic writes, pcap, the results
## reports' statistics and template renderer) and of mpqoe.topo's pure functions, with the
## cookie layout and the descriptors' port plans checked against what the Java code makes
## (`bin/mpqoe contract`); no root, about 3 s once built
py-unit: mininet-deps build
	cd mininet-scripts && /usr/bin/python3 -m unittest discover -s tests -t .
	/usr/bin/python3 -m unittest discover -s floodlight-module/bench -p 'test_*.py'
	/usr/bin/python3 floodlight-module/bench/perf_report.py --verify

## mininet-selftest: the topology builder and MPTCP over OVS, without the controller
mininet-selftest: mininet-deps
	/usr/bin/python3 mininet-scripts/selftest.py

## e2e: the standalone controller steering real MPTCP subflows through Open vSwitch: the GA with
## per-hop rules and with segment routing (MPLS label stacks), QoMRA with segment routing, and
## the GA on the network the controller discovered without a descriptor, and the GA with each
## client's three interfaces on three different switches (source policy routing on the clients)
e2e: mininet-deps build
	/usr/bin/python3 mininet-scripts/e2e_controller.py
	/usr/bin/python3 mininet-scripts/e2e_controller.py --segment-routing
	/usr/bin/python3 mininet-scripts/e2e_controller.py --algorithm qomra --segment-routing
	/usr/bin/python3 mininet-scripts/e2e_controller.py --discovered
	/usr/bin/python3 mininet-scripts/e2e_controller.py --spread

format:
	$(MVN) -q spotless:apply
	$(PY) -m ruff format $(PY_DIRS)

clean:
	$(MVN) -q clean

## kernel-core-test: the schedulers' decision logic (plain C) under cmocka, scenario and random tests
kernel-core-test:
	$(MAKE) -C kernel-schedulers/tests

## kernel-schedulers: the seven MPTCP scheduler and three congestion control modules for the
## target kernel (KERNEL=, default the newest Debian 12 build of 6.12: -Werror, checkpatch, no
## indirect calls, private layouts as in its BTF), the core tests, and the QEMU TCG smoke test
kernel-schedulers: py-pkg
	$(MAKE) -C kernel-schedulers all smoke

## kernel-matrix: the modules built and smoke-tested in each tested kernel (Debian 12's and 13's
## 6.12, 7.3 from trixie-backports: the get_send/get_retrans interface), and Debian 12's 6.1
## refused with exit 2; one guest at a time (docs/kernel-schedulers.md, "Kernels")
kernel-matrix: py-pkg
	$(MAKE) -C kernel-schedulers kernel-matrix

## testbed: the QEMU guest of docs/testbed.md (Debian's 6.12 kernel, netem, OVS kernel
## datapath, Mininet), built from Debian packages and cached (as root: debootstrap)
testbed: py-pkg
	$(MAKE) -C testbed

## testbed-probe: the video-stream probe's unit tests and its two-subflow test between network
## namespaces on this kernel (root, about 30 s)
testbed-probe: py-pkg
	$(MAKE) -C testbed/probe test

## pcdc: the PCDC path manager's unit tests and its namespace test on this kernel: which
## subflows it opens for 256 KiB, 768 KiB and 10 MiB downloads, FullMesh, the impact-factor
## measurement, and the experiment driver's smoke run (root, about 45 s; docs/pcdc.md)
pcdc: py-pkg
	$(MAKE) -C pcdc test

## testbed-smoke: boot it, load netem and a scheduler module, MPTCP over netem-delayed paths,
## and the host's controller driving the guest's Open vSwitch (about 70 s once cached)
testbed-smoke: build py-pkg
	$(MAKE) -C testbed smoke

## experiments-test: unit tests of the scheduler-paper experiment scripts: matrix, routes,
## planning, the publish step, the report and its check mode (no guest, about 10 s)
experiments-test: mininet-deps
	/usr/bin/python3 -m unittest discover -s testbed/experiments -p 'test_*.py'

## experiments: the scheduler papers' matrix in the testbed through the workflow, 5 runs per
## cell, 10 s videos (machine time: docs/workflow.md's cost table; not part of make test;
## resumable), then its per-run CSVs, tables and plots in docs/results
experiments: testbed workflow-deps
	$(MAKE) -C kernel-schedulers modules
	$(SNAKEMAKE) --profile workflow/profiles/local --cores $(CORES) --config 'video_experiments=[]' \
	  'scheduler_experiments=[sticky,bnaware]' scheduler_runs=5 scheduler_duration=10

## experiments-report: publish the raw runs of build/experiments into docs/results/*/data/,
## then make results
experiments-report: py-pkg
	$(MAKE) -C testbed/experiments report

.PHONY: results results-check video-unit

## results: everything under docs/results from the committed per-run CSVs in
## docs/results/**/data/: the GA and QoMRA papers' video results (tables, figures, the pages
## rendered from docs/results/*-paper.md.in), the scheduler papers' (tables and plots of
## every result set, docs/results/scheduler-*.md rendered from their .md.in), the congestion
## controls' page, once its data are imported (pcdc/pcdc_report.py --import) the PCDC page,
## docs/perf.md and docs/algorithms.md from docs/perf/data, and the LLDP delay block of
## docs/floodlight.md (python3 -m mpqoe.report [--check] [FAMILY ...], python/mpqoe/report.py)
results: py-pkg
	/usr/bin/python3 -m mpqoe.report

## results-check: fails listing every file of docs/results, docs/perf.md, docs/algorithms.md
## and the LLDP delay block that differs from what its data give (every report is run, so one
## stale file of any shows)
results-check: py-pkg
	/usr/bin/python3 -m mpqoe.report --check

## video-unit: unit tests of the video experiments' runner pieces and report (the statistics
## they share with the scheduler report are tested by py-unit; no root, about 25 s)
video-unit: py-pkg
	/usr/bin/python3 -m unittest discover -s testbed/video -p 'test_*.py'

## dashjs-harness: both player profiles (dash.js 2.5.0 and 5.2.1) in Debian's headless Chromium
## over two-path MPTCP between network namespaces, QoE metrics unit tests
## (docs/dashjs-harness.md; about 1.5 min once installed)
dashjs-harness: py-pkg
	$(MAKE) -C dashjs-harness test
