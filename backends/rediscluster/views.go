package rediscluster

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// State is the node at addr's own cluster_state (CLUSTER INFO): "ok", or "fail" once a
// slot is unserved or it cannot reach a majority of the masters (it then refuses
// commands with CLUSTERDOWN).
func State(ctx context.Context, addr string) (string, error) {
	info, err := fields(ctx, addr, "CLUSTER", "INFO")
	if err != nil {
		return "", err
	}
	return info["cluster_state"], nil
}

// Flags are the flags the node at observer gives the node at addr in its CLUSTER NODES
// (master, slave, myself, fail? while it suspects it, fail once a majority agreed).
func Flags(ctx context.Context, observer, addr string) ([]string, error) {
	v, err := redisadmin.AdminQuery(ctx, observer, "CLUSTER", "NODES")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(fmt.Sprint(v), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		at, _, _ := strings.Cut(f[1], "@") // ip:port@bus[,hostname]
		if at == addr {
			return strings.Split(f[2], ","), nil
		}
	}
	return nil, fmt.Errorf("%s does not list a node at %s", observer, addr)
}
