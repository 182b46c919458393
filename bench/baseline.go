package bench

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// FindRedisBenchmark returns redis-benchmark: $REDIS_BENCHMARK if set, else PATH.
func FindRedisBenchmark() (string, error) {
	if p := os.Getenv("REDIS_BENCHMARK"); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("redis-benchmark")
	if err != nil {
		return "", errors.New("redis-benchmark not found: install redis-tools (Debian/Ubuntu: apt-get install redis-tools) " +
			"or set REDIS_BENCHMARK")
	}
	return p, nil
}

// SetNXBaseline is redis-benchmark's rate for the acquire command alone, on random keys:
// the ceiling a lock client on the same server could reach.
type SetNXBaseline struct {
	RequestsPerSecond float64
	P50Ms, P99Ms      float64
}

// RunSetNXBaseline runs redis-benchmark with clients connections and n requests of
// SET lock:<random> v NX PX 30000 against addr.
func RunSetNXBaseline(ctx context.Context, bin, addr string, clients, n int) (SetNXBaseline, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return SetNXBaseline{}, err
	}
	cmd := exec.CommandContext(ctx, bin, "-h", host, "-p", port,
		"-c", strconv.Itoa(clients), "-n", strconv.Itoa(n), "-r", "1000000", "--csv",
		"SET", "lock:__rand_int__", "v", "NX", "PX", "30000")
	out, err := cmd.Output()
	if err != nil {
		return SetNXBaseline{}, fmt.Errorf("redis-benchmark: %w", err)
	}
	return parseBaselineCSV(string(out))
}

// parseBaselineCSV reads redis-benchmark's --csv output: a header and one row.
func parseBaselineCSV(out string) (SetNXBaseline, error) {
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 2 {
		return SetNXBaseline{}, fmt.Errorf("redis-benchmark: unexpected output %q", out)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	get := func(name string) (float64, error) {
		i, ok := col[name]
		if !ok || i >= len(rows[1]) {
			return 0, fmt.Errorf("redis-benchmark: no %q column in %q", name, out)
		}
		return strconv.ParseFloat(rows[1][i], 64)
	}
	var b SetNXBaseline
	if b.RequestsPerSecond, err = get("rps"); err != nil {
		return b, err
	}
	if b.P50Ms, err = get("p50_latency_ms"); err != nil {
		return b, err
	}
	b.P99Ms, err = get("p99_latency_ms")
	return b, err
}
