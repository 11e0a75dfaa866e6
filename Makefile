# sweep: make build | test | bench | lint | reproduce | clean
GO        ?= go
BIN       := bin/sweep
RESULTS   ?= results/burkimsher2013
JOBS      ?= 0

.PHONY: build test lint bench reproduce clean

build:
	$(GO) build -o $(BIN) ./cmd/sweep

# The README's test command; .ci/run runs exactly this. The runner and the
# Parquet store are concurrent, so they run again under the race detector.
test: lint
	$(GO) test -count=1 ./...
	$(GO) test -race -count=1 ./sweep/...

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
