package external

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// probeTimeout bounds each server's first answer.
const probeTimeout = 5 * time.Second

// probe proves every server answers and reads its version: INFO server on Redis (the
// probe purpose's one read-only command), the store's own probe on its members. A
// server that answers but will not say its version is recorded as such; one that does
// not answer is an error.
func (t *topology) probe(ctx context.Context) ([]resultsdir.ExternalServer, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if t.store != nil {
		return t.store.Probe(ctx, Servers{Members: t.masters, Access: t.access})
	}
	if len(t.sentinels) > 0 { // the sentinels name the master
		master, err := t.askMaster(ctx)
		if err != nil {
			return nil, err
		}
		t.masters = nodes(topologies.RoleMaster, "master", []string{master})
	}
	var out []resultsdir.ExternalServer
	for _, n := range t.Nodes() {
		access := t.access
		if n.Role() == topologies.RoleSentinel {
			access = t.sentinelAccess
		}
		v, err := redisVersion(ctx, n.Addr(), access)
		if err != nil {
			return nil, fmt.Errorf("provider external: %s at %s: %w", n.Name(), n.Addr(), err)
		}
		out = append(out, resultsdir.ExternalServer{Role: string(n.Role()), Name: n.Name(), Addr: n.Addr(), Version: v})
	}
	return out, nil
}

// askMaster asks the sentinels, in order, which server is the master now.
func (t *topology) askMaster(ctx context.Context) (string, error) {
	var last error
	for _, s := range t.sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: s.Addr(), Username: t.sentinelAccess.Username,
			Password: t.sentinelAccess.Password, TLSConfig: t.sentinelAccess.TLS, MaxRetries: -1,
			DialTimeout: probeTimeout, DisableIdentity: true, Protocol: 2})
		c.AddHook(redisconn.AllowListHook(redisconn.PurposeProbe))
		addr, err := c.GetMasterAddrByName(ctx, t.spec.MasterName).Result()
		c.Close()
		if err == nil && len(addr) == 2 {
			return addr[0] + ":" + addr[1], nil
		}
		last = fmt.Errorf("%s at %s: %v", s.Name(), s.Addr(), err)
	}
	return "", fmt.Errorf("provider external: no sentinel names master %q: %w", t.spec.MasterName, last)
}

// redisVersion pings addr and reads redis_version from INFO server.
func redisVersion(ctx context.Context, addr string, access topologies.Access) (string, error) {
	c := redisconn.NewClient(addr, redisconn.PurposeProbe, redisconn.Options{PoolSize: 1, Timeout: probeTimeout, Access: access})
	defer c.Close()
	if err := c.Ping(ctx).Err(); err != nil {
		return "", fmt.Errorf("does not answer: %w", err)
	}
	info, err := c.Info(ctx, "server").Result()
	if err != nil {
		return "unknown (INFO server: " + err.Error() + ")", nil
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			return v, nil
		}
	}
	return "unknown (no redis_version in INFO server)", nil
}
