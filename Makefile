# sweep: make build | test | test-slurm | bench | lint | reproduce | clean
GO        ?= go
BIN       := bin/sweep
RESULTS   ?= results/burkimsher2013
JOBS      ?= 0

.PHONY: build test test-slurm lint bench reproduce clean

build:
	$(GO) build -o $(BIN) ./cmd/sweep

# The README's test command; .ci/run runs exactly this.
test: lint
	$(GO) test -count=1 ./...

# The job-array script on a real one-node Slurm (scripts/slurm-local installs
# and starts it; root on Debian). Skips, saying why, where Slurm cannot start.
test-slurm:
	$(GO) test -tags slurm -count=1 -v -timeout 20m -run '^TestSlurmJobArray$$' ./cmd/sweep

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Seed 004 at full scale: 5,250 schedules, then the paper's statistics.
reproduce: build
	$(BIN) run experiments/burkimsher2013.yaml --out $(RESULTS) $(if $(filter-out 0,$(JOBS)),-j $(JOBS))
	$(BIN) analyze $(RESULTS)
	$(BIN) report $(RESULTS)

clean:
	rm -rf bin
