# The two set-up commands: `make bench` (default benchmark and summary) and `make test`.
GO       ?= go
# Every package's tests, real servers included, must finish well inside CI's budget.
TEST_TIMEOUT ?= 20m
# One P for the Go client: on a small machine the client and the servers share the
# cores, and redis-benchmark (the baseline) is single-threaded too.
BENCH_CPU  ?= 1
BENCH_TIME ?= 1s
BENCH      ?= .
# Every go command here builds with -trimpath: a package compiled once is cached by its
# content, not by where its checkout or module cache lies, so a fresh clone, or a fresh
# module cache, compiles only what changed (docs/testing.md).
export GOFLAGS += -trimpath

.PHONY: bench gobench test test-plain test-raced deps vet build fuzz short

# Every ZooKeeper server a test starts compiles with C1 only and collects with one
# thread: a third less CPU a start (benchmarks keep the JVM's defaults).
TEST_JVM_OPTIONS ?= -XX:TieredStopAtLevel=1 -XX:+UseSerialGC
test-plain test-raced: export LOCKBENCH_ZOOKEEPER_JVM_OPTIONS = $(TEST_JVM_OPTIONS)
# The helper processes a test starts (etcd members, the FUSE servers of forgetful disks)
# run as the lockbench binary, built without the race detector: a raced test binary
# re-executed as a helper ran etcd, or every FUSE request, raced.
test-plain test-raced: export LOCKBENCH_HELPER_EXE = $(CURDIR)/lockbench

deps:
	@bash scripts/deps.sh

# -trimpath: a build of one commit has one hash wherever its checkout lies, so a folder
# whose run recorded that hash resumes with a build made in another checkout or session.
build:
	$(GO) build -trimpath -o lockbench ./cmd/lockbench

# go.mod and go.sum must be what `go mod tidy` writes: -diff prints what it would
# change and fails, so a stale `// indirect` or a missing sum fails make test here.
vet:
	$(GO) mod tidy -diff
	$(GO) vet ./...

# The inner loop: every pure test, no server started (testenv.NeedsServers skips the rest).
short:
	$(GO) test -short -count=1 ./...

# The README's test command: tidy and vet, then every package's tests once, against real
# servers. A package runs under the race detector by the rule scripts/race-packages.sh
# states (its own code starts goroutines or uses sync, or its tests drive it through a
# harness running clients side by side); a package of sequential code runs plain, the
# same checks many times faster. The safety
# scenarios are raced packages like the others: their races are sized so that a loaded
# machine cannot decide them (docs/testing.md).
# `go test -short ./...` is the inner loop: pure code only, no server (docs/testing.md).
# The two stages run side by side (make -j 2): the plain one is mostly compiling and
# linking, the raced one mostly waits on servers (TTLs, failovers), six packages at
# once. A test binary runs four of its parallel tests at once (go test's default is
# GOMAXPROCS, two here): the scenario tests mostly wait out TTLs and failovers (the
# clock scenarios took 271 s at two tests and four packages at once, 153 s at four and
# six; the whole of make test 562 s, then 429 s: docs/testing.md). Tests are sized
# so that a loaded machine does not decide them; docs/testing.md lists those resized.
RACED_AT_ONCE ?= 6
TESTS_AT_ONCE ?= 4
RACED     = $(shell bash scripts/race-packages.sh ./...)
PLAIN     = $(filter-out $(RACED),$(shell $(GO) list ./...))
test: deps vet
	@$(MAKE) --no-print-directory -j 2 test-plain test-raced

# Each stage starts its packages longest first, by the times its last run recorded in Go's
# build cache, or on a machine's first run those of a run committed in scripts/test-times
# (scripts/longest-first.sh): a long package started last runs alone at the end.
TEST_TIMES ?= $(shell $(GO) env GOCACHE)/lockbench-test-times
test-plain: build
	@s=$$(date +%s); bash scripts/longest-first.sh $(TEST_TIMES)-plain scripts/test-times/plain \
		$(GO) test -count=1 -parallel $(TESTS_AT_ONCE) -timeout $(TEST_TIMEOUT) -- $(PLAIN) && \
		echo "plain packages took $$(( $$(date +%s) - s )) s"

test-raced: build
	@s=$$(date +%s); bash scripts/longest-first.sh $(TEST_TIMES)-raced scripts/test-times/raced \
		$(GO) test -race -p $(RACED_AT_ONCE) -parallel $(TESTS_AT_ONCE) -count=1 -timeout $(TEST_TIMEOUT) -- $(RACED) && \
		echo "raced packages took $$(( $$(date +%s) - s )) s"

# Each reader of user files fuzzed for a short, bounded time: no input may panic it.
# The seed corpus (and any input that once failed) is in each package's testdata/fuzz,
# and every `go test` replays it; fuzzing itself is a third build mode (coverage-
# instrumented), so it is its own target, run when a reader changes, not in make test.
FUZZ_TIME ?= 10s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseYAML$$' -fuzztime $(FUZZ_TIME) ./sweep
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRun$$' -fuzztime $(FUZZ_TIME) ./resultsdir
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeHistogramLog$$' -fuzztime $(FUZZ_TIME) ./resultsdir
	$(GO) test -run '^$$' -fuzz '^FuzzParseHold$$' -fuzztime $(FUZZ_TIME) ./contention
	$(GO) test -run '^$$' -fuzz '^FuzzParseKeys$$' -fuzztime $(FUZZ_TIME) ./contention

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
