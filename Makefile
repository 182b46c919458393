# The two set-up commands: `make bench` (default benchmark and summary) and `make test`.
GO       ?= go
# Every package's tests, real servers included, must finish well inside CI's budget.
TEST_TIMEOUT ?= 20m
# One P for the Go client: on a small machine the client and the servers share the
# cores, and redis-benchmark (the baseline) is single-threaded too.
BENCH_CPU  ?= 1
BENCH_TIME ?= 1s
BENCH      ?= .

.PHONY: bench gobench test race deps vet build fuzz

deps:
	@bash scripts/deps.sh

# -trimpath: a build of one commit has one hash wherever its checkout lies, so a folder
# whose run recorded that hash resumes with a build made in another checkout or session.
build:
	$(GO) build -trimpath -o lockbench ./cmd/lockbench

vet:
	$(GO) vet ./...

# The README's test command: every test once, against real servers, after vet and the
# fuzz targets. Each package with concurrent code runs under the race detector (the
# race build checks behaviour as the plain one does, only slower); the rest run plain.
# The safety scenarios run one package at a time (-p 1), after the rest: two
# real-server scenario packages at once on 2 cores starve the clients' per-node
# deadlines. Their slowest tests (RACE_SKIP) run plain.
SCENARIO_PKGS = ./safety/lab/... ./safety/scenarios/...
test: deps vet fuzz
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) $$($(GO) list ./... | grep -v -x -F $(foreach p,$(shell $(GO) list $(RACE_PKGS) $(SCENARIO_PKGS)),-e $(p)))
	@s=$$(date +%s); $(MAKE) --no-print-directory race && echo "make race took $$(( $$(date +%s) - s )) s"
	$(GO) test -p 1 -count=1 -timeout $(TEST_TIMEOUT) -run '$(RACE_SKIP)' $(SCENARIO_PKGS)

# The race detector over the packages with concurrent code: the engine, the sweep and
# its workers, netem's proxies, every lock strategy and the Redis connection, the safety
# lab and the suite that runs it (its interrupt tests), capacity, clocks, the resources
# and the topologies' supervised nodes, gates and pools. Left out: report/compare (its only
# goroutines are a test's worker pool over pure code: 166 s under -race),
# topologies/container (148 s; the safety lab's container partitions run its code) and
# cmd/lockbench but for its interrupt tests (the rest is sequential CLI, 141 s).
RACE_PKGS ?= ./bench ./capacity/... ./clocks/... ./locks/... ./backends/redis/redislock ./backends/etcd/etcdlock ./backends/postgres/pglock ./backends/zookeeper/zklock ./merge ./netem ./redisconn \
	./resources/... ./safety ./safety/check ./safety/nemesis ./safety/results ./safety/suite ./sweep \
	./topologies ./backends/redis/redistopo ./topologies/embedded ./topologies/supervise ./backends/etcd/etcdtopo ./backends/postgres/pgtopo \
	./backends/zookeeper/zktopo
# The slowest real-server scenarios, left to the plain run to keep CI's budget: each
# one's concurrent code also runs in a kept test (the same scenario on another store or
# provider, or the trial runner every scenario shares), but for the split brain's second
# client; under -race they took 324 of the lab's 466 s.
# The lab runs alone, after the rest, one package at a time (-p 1): beside other packages
# under -race its redlock first acquires timed out on all five nodes (4 tests failed);
# alone they passed.
RACE_SKIP ?= ^(TestSentinelSplitBrain|TestFenceRegression|TestFenceRegressionOnACluster|TestFenceRegressionZooKeeperEmptyRestart|TestPausePastTTL|TestWaitObjections|TestLostUpdatesFailover|TestLostUpdatesFailoverOnACluster|TestSentinelClockSkewProcess|TestZooKeeperLeaderKill|TestTTLTradeoff|TestClockScenariosProcess|TestFailoverLoss|TestFailoverLossZombie|TestRedlockQuorum)$$
race: deps
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(RACE_PKGS)
	$(GO) test -race -p 1 -count=1 -timeout $(TEST_TIMEOUT) -skip '$(RACE_SKIP)' $(SCENARIO_PKGS)
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) -run 'Interrupt|CtrlC' ./cmd/lockbench

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
