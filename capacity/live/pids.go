package live

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/topologies"
)

// serverPIDs asks every Redis node (sentinels too) for its process id (INFO server),
// so that its CPU can be read from /proc; nodes that do not answer are left out.
func serverPIDs(ctx context.Context, topo topologies.Topology) map[string]int {
	out := map[string]int{}
	if topo.Provider() == "external" {
		return out // another machine's processes: no pid of theirs means anything here
	}
	for _, n := range topo.Nodes() {
		if pid, ok := redisPID(ctx, n.Addr()); ok {
			out[n.Name()] = pid
		}
	}
	return out
}

func redisPID(ctx context.Context, addr string) (int, bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	info, err := c.Info(ctx, "server").Result()
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, err := strconv.Atoi(v)
			return pid, err == nil
		}
	}
	return 0, false
}
