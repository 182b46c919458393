# The two set-up commands: `make bench` (default benchmark and summary) and `make test`.
GO       ?= go
# Every package's tests, real servers included, must finish well inside CI's budget.
TEST_TIMEOUT ?= 20m
# One P for the Go client: on a small machine the client and the servers share the
# cores, and redis-benchmark (the baseline) is single-threaded too.
BENCH_CPU  ?= 1
BENCH_TIME ?= 1s
BENCH      ?= .

.PHONY: bench gobench test deps vet build fuzz

deps:
	@bash scripts/deps.sh

build:
	$(GO) build -o lockbench ./cmd/lockbench

vet:
	$(GO) vet ./...

test: deps vet fuzz
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

# Each reader of user files fuzzed for a short, bounded time: no input may panic it.
# The seed corpus (and any input that once failed) is in each package's testdata/fuzz;
# plain `go test` replays it too.
FUZZ_TIME ?= 10s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseYAML$$' -fuzztime $(FUZZ_TIME) ./sweep
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRun$$' -fuzztime $(FUZZ_TIME) ./resultsdir
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeHistogramLog$$' -fuzztime $(FUZZ_TIME) ./resultsdir

# The main job: the quick matrix into results/<timestamp> (results/latest points at it).
bench: deps build
	GOMAXPROCS=$(BENCH_CPU) ./lockbench run --quick

# The `go test -bench` suite with its summary table and the redis-benchmark baseline.
gobench: deps
	@mkdir -p results
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCH_TIME) -cpu $(BENCH_CPU) -timeout 30m ./bench | tee results/bench.txt
	@echo
	@$(GO) run ./cmd/lockbench benchtable < results/bench.txt
	@echo
	@echo "raw benchmark output (benchstat-ready): results/bench.txt"
