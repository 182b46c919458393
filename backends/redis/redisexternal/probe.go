package redisexternal

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
)

// probe proves every server answers and reads its version with INFO server (the probe
// purpose's one read-only command). On a sentinel deployment it first asks the
// sentinels which server is master now, and puts that one in s.Masters.
func probe(ctx context.Context, s *external.Servers) ([]resultsdir.ExternalServer, error) {
	if len(s.Sentinels) > 0 {
		master, err := askMaster(ctx, *s)
		if err != nil {
			return nil, err
		}
		s.Masters = masters(master)
	}
	var out []resultsdir.ExternalServer
	for _, n := range s.Nodes() {
		access := s.Access
		if n.Role() == topologies.RoleSentinel {
			access = s.SentinelAccess
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
func askMaster(ctx context.Context, s external.Servers) (string, error) {
	var last error
	for _, n := range s.Sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: n.Addr(), Username: s.SentinelAccess.Username,
			Password: s.SentinelAccess.Password, TLSConfig: s.SentinelAccess.TLS, MaxRetries: -1,
			DialTimeout: external.ProbeTimeout, DisableIdentity: true, Protocol: 2})
		c.AddHook(redisconn.AllowListHook(redisconn.PurposeProbe))
		addr, err := c.GetMasterAddrByName(ctx, s.Spec.MasterName).Result()
		c.Close()
		if err == nil && len(addr) == 2 {
			return addr[0] + ":" + addr[1], nil
		}
		last = fmt.Errorf("%s at %s: %v", n.Name(), n.Addr(), err)
	}
	return "", fmt.Errorf("provider external: no sentinel names master %q: %w", s.Spec.MasterName, last)
}

// redisVersion pings addr and reads redis_version from INFO server.
func redisVersion(ctx context.Context, addr string, access redisconn.Access) (string, error) {
	c := redisconn.NewClient(addr, redisconn.PurposeProbe, redisconn.Options{PoolSize: 1,
		Timeout: external.ProbeTimeout, Access: access})
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
