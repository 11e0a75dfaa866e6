# sweep: make build | test | test-slurm | check-parquet | bench | bench-reproduce | lint | reproduce | screenshots | clean
GO        ?= go
BIN       := bin/sweep
RESULTS   ?= results/burkimsher2013
JOBS      ?= 0
# sweep's version as results record it (sweep version; tool_version in every
# Parquet file): git's description of the checkout, stamped into the binary
# so that it holds where Go records no VCS information (-buildvcs=false, a
# copy without .git, a worktree Go cannot read).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)

.PHONY: build test test-slurm check-parquet lint bench bench-reproduce reproduce screenshots clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/sweep

# The README's test command; .ci/run runs exactly this. The runner and the
# Parquet store are concurrent, so they run again under the race detector.
test: lint
	$(GO) test -count=1 ./...
	$(GO) test -race -count=1 ./sweep/...

# The job-array script on a real one-node Slurm (scripts/slurm-local installs
# and starts it; root on Debian). Skips, saying why, where Slurm cannot start.
test-slurm:
	$(GO) test -tags slurm -count=1 -v -timeout 20m -run '^TestSlurmJobArray$$' ./cmd/sweep

lint:
	$(GO) vet ./...
	$(GO) vet -tags slurm ./cmd/sweep
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Every table of a small run of each model, read by parquet-wasm (arrow-rs),
# polars and DuckDB (needs Node.js and npm).
check-parquet:
	scripts/check-parquet/run

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
