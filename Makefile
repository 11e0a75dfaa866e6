# sweep: make build | test | test-killdisk | test-python | test-gym | examples | rl | rl-smoke | test-slurm | check-parquet | notebooks | screenshots | bench | bench-all | bench-reproduce | lint | reproduce | clean
GO        ?= go
BIN       := bin/sweep
RESULTS   ?= results/burkimsher2013
JOBS      ?= 0
# sweep's version as results record it (sweep version; tool_version in every
# Parquet file): git's description of the checkout, stamped into the binary
# so that it holds where Go records no VCS information (-buildvcs=false, a
# copy without .git, a worktree Go cannot read).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X github.com/sweep-sched/sweep/cli.version=$(VERSION)

.PHONY: build test test-killdisk test-python test-gym examples rl rl-smoke test-slurm check-parquet check-evalys notebooks pybatsim lint bench bench-all bench-reproduce reproduce screenshots clean

# -s -w leave out the symbol table and DWARF (panics still name functions):
# 50 instead of 66 MiB. -trimpath keeps build paths out of the binary.
# CGO_ENABLED=0: nothing in sweep needs C (the net package that Arrow's
# Parquet writer pulls in through Flight and gRPC falls back to Go's own
# resolver), and a static binary runs on a cluster's compute nodes whatever
# their C library.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS)" -o $(BIN) ./cmd/sweep

# The README's test command; .ci/run runs exactly this. The runner and the
# Parquet store are concurrent, so they run again under the race detector.
test: lint
	$(GO) test -count=1 ./...
	$(GO) test -race -count=1 ./sweep/... ./store/...

# Issue 35's acceptance check: a run with job rows killed (SIGKILL) 10
# times on a tmpfs that holds 1.3 times a clean run, then resumed: it
# completes, equals the clean run and leaves no temporary file. About a
# minute; mounts a tmpfs, so it needs root (it skips, saying why, where it
# cannot mount). Behind the build tag killdisk, so `make test` leaves it out.
test-killdisk:
	$(GO) test -tags killdisk -count=1 -v -timeout 10m -run '^TestKill9OnSmallDisk$$' ./sweep

# The Python client of the pipe protocol (python/): installed as a
# researcher installs it, then its pytest suite (pinned in
# python/requirements-test.txt). PYTHON may name a virtualenv's python.
PYTHON ?= python3
test-python:
	$(PYTHON) -m pip install -q -r python/requirements-test.txt ./python
	$(PYTHON) -m pytest -q python/tests

# The Gymnasium environment (issue 33, docs/gym.md): the sweep-gym server
# built into bin/, "./python[gym]" installed from pinned files into
# .venv-gym, then its pytest suite (check_env, determinism, the vector env,
# faults, the rlscheduler preset against RLScheduler's values when
# ../shared/traces holds SDSC-SP2). Under a minute.
GYM_VENV ?= .venv-gym
test-gym:
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/sweep-gym ./cmd/sweep-gym
	test -x $(GYM_VENV)/bin/python || $(PYTHON) -m venv $(GYM_VENV)
	$(GYM_VENV)/bin/python -m pip install -q -r python/requirements-test.txt -r python/requirements-gym.txt "./python[gym]"
	SWEEP_GYM_BIN=$(CURDIR)/bin/sweep-gym $(GYM_VENV)/bin/python -m pytest -q python/tests/test_gym.py

# The example module (examples/ownpolicy): its own sweep binary with Go
# policies registered beside the built-ins, its tests (each Go policy and
# its Python twin agree cell for cell), then both manifests run and
# analysed like any built-in. The Python policies find the client on
# PYTHONPATH.
examples:
	cd examples/ownpolicy && $(GO) vet ./... && $(GO) build -o ../../bin/ownsweep .
	cd examples/ownpolicy && PYTHONPATH=$(CURDIR)/python $(GO) test -count=1 ./...
	cd examples/ownpolicy && for m in rigid dag; do \
		PYTHONPATH=$(CURDIR)/python ../../bin/ownsweep run $$m.yaml --out ../../results/ownpolicy-$$m && \
		../../bin/ownsweep analyze ../../results/ownpolicy-$$m || exit 1; done

# A learned scheduler (examples/rl): MaskablePPO trained on sweep/Rigid-v0
# on CPU, judged as a policy of a manifest beside fcfs-none, sjf and f1, the
# notebook executed headless: 4-6 min. rl-smoke is the same at CI's size
# (3,072 training steps, 16 cells): 20-30 s once .venv-rl exists; creating it
# installs PyPI's CUDA-built torch (6 GB, 1.5-2.5 min here), which is why
# .ci/run leaves it out (examples/rl/README.md, "CI").
rl:
	examples/rl/run.sh full

rl-smoke:
	examples/rl/run.sh smoke

# The job-array script on a real one-node Slurm (scripts/slurm-local installs
# and starts it; root on Debian). Skips, saying why, where Slurm cannot start.
test-slurm:
	$(GO) test -tags slurm -count=1 -v -timeout 20m -run '^TestSlurmJobArray$$' ./cli

lint:
	$(GO) vet ./...
	$(GO) vet -tags slurm ./cli
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@# A merge's conflict markers left in any tracked file (one sat in the README for a stop).
	@out=$$(git grep -nE '^(<<<<<<<|>>>>>>>)( |$$)' 2>/dev/null); if [ -n "$$out" ]; then echo "conflict markers:"; echo "$$out"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Every table of a small run of each model, read by parquet-wasm (arrow-rs),
# polars and DuckDB from Node.js (npm), and by pyarrow, pandas and polars
# from Python (PyPI, notebooks/requirements.txt in .venv-notebooks).
check-parquet:
	scripts/check-parquet/run

# pybatsim 3.2.1 into .venv-batsim, for policy/batsim's tests and
# manifests with batsim policies (scripts/install-pybatsim).
pybatsim:
	scripts/install-pybatsim

# evalys (PyPI) reads a Batsim jobs.csv that sweep exports and draws its
# Gantt chart headless (scripts/check-evalys).
check-evalys:
	scripts/check-evalys

# The five studies end to end (run, analyze, report) under /usr/bin/time
# -v: one table of wall, CPU, peak RSS and cells/s (scripts/bench-all).
bench-all:
	scripts/bench-all $(if $(filter-out 0,$(JOBS)),-j $(JOBS))

# Each study's notebook (notebooks/*.ipynb) executed headless on a reduced
# run of its manifest (notebooks/manifests); Python packages pinned in
# notebooks/requirements.txt, installed into .venv-notebooks from PyPI.
notebooks:
	notebooks/run

# Seed 004 at full scale with per-step wall time, CPU time, peak RSS, cells/s
# and the writer's share of the workers' time (scripts/bench-reproduce).
bench-reproduce:
	scripts/bench-reproduce results/bench-reproduce $(if $(filter-out 0,$(JOBS)),-j $(JOBS))

# Seed 004 at full scale: 5,250 schedules, then the paper's statistics.
reproduce: build
	$(BIN) run experiments/burkimsher2013.yaml --out $(RESULTS) $(if $(filter-out 0,$(JOBS)),-j $(JOBS))
	$(BIN) analyze $(RESULTS)
	$(BIN) report $(RESULTS)

# The five studies at a reduced size, each report rendered by headless
# Chromium (Debian's chromium) at 1400 px width: results/screenshots/png/
# <study>.png (the whole page) and <study>-NN.png (one screen each).
SHOTS ?= results/screenshots
screenshots: build
	rm -rf $(SHOTS)
	scripts/small-studies $(SHOTS)
	scripts/screenshots $(SHOTS)/png $(SHOTS)/burkimsher2013 $(SHOTS)/dutot2004 \
		$(SHOTS)/ostrich2013-lpc-egee $(SHOTS)/ostrich2013-synthetic $(SHOTS)/vasupongayya2012

clean:
	rm -rf bin
