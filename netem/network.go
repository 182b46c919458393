package netem

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strings"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/lockbench/lockbench/topologies"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// Network is a set of proxies, one per node, applying one profile.
type Network struct {
	profile Profile
	server  *toxiproxy.ApiServer
	proxies map[string]*toxiproxy.Proxy // by upstream (real) address
	names   map[string]string           // upstream address -> node name
}

// Start puts a proxy in front of every node of topo and applies profile; seed drives
// the jitter. Replication and sentinel-to-server traffic stay direct: only clients
// are slowed.
func Start(topo topologies.Topology, profile Profile, seed uint64) (*Network, error) {
	n := &Network{
		profile: profile,
		server:  toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop()),
		proxies: map[string]*toxiproxy.Proxy{},
		names:   map[string]string{},
	}
	slow := profile.SlowNode
	if profile.Name == "one-slow" && slow == "" {
		slow = topo.Masters()[0].Name()
	}
	found := false
	var compensate time.Duration
	if profile.Name != "none" {
		compensate = timerLateness(profile.Latency)
	}
	for i, node := range topo.Nodes() {
		p := toxiproxy.NewProxy(n.server, node.Name(), "127.0.0.1:0", node.Addr())
		if err := p.Start(); err != nil {
			n.Close()
			return nil, fmt.Errorf("proxy for %s: %w", node.Name(), err)
		}
		n.proxies[node.Addr()] = p
		n.names[node.Addr()] = node.Name()
		slowed := profile.Name == "uniform" || (profile.Name == "one-slow" && node.Name() == slow)
		found = found || node.Name() == slow
		if !slowed {
			continue
		}
		if err := addLatency(p, profile.Latency, profile.Jitter, compensate, seed+uint64(2*i)); err != nil {
			n.Close()
			return nil, fmt.Errorf("latency on %s: %w", node.Name(), err)
		}
	}
	if profile.Name == "one-slow" && !found {
		n.Close()
		return nil, fmt.Errorf("network profile %s: no node named %q (nodes: %s)", profile, slow, strings.Join(nodeNames(topo), ", "))
	}
	return n, nil
}

func nodeNames(topo topologies.Topology) []string {
	var out []string
	for _, n := range topo.Nodes() {
		out = append(out, n.Name())
	}
	return out
}

// addLatency delays both directions, so a round trip gains twice the latency.
func addLatency(p *toxiproxy.Proxy, latency, jitter, compensate time.Duration, seed uint64) error {
	for i, stream := range []string{"upstream", "downstream"} {
		spec := fmt.Sprintf(`{"name":"latency_%s","type":%q,"stream":%q,"attributes":{"latency_us":%d,"jitter_us":%d,"compensate_us":%d,"seed":%d}}`,
			stream, preciseLatencyType, stream, latency.Microseconds(), jitter.Microseconds(), compensate.Microseconds(), seed+uint64(i))
		if _, err := p.Toxics.AddToxicJson(strings.NewReader(spec)); err != nil {
			return err
		}
	}
	return nil
}

// Profile is the profile this network applies.
func (n *Network) Profile() Profile { return n.profile }

// ProxyAddr returns the proxy in front of upstream, or upstream itself if none.
func (n *Network) ProxyAddr(upstream string) string {
	if p, ok := n.proxies[upstream]; ok {
		return p.Listen
	}
	return upstream
}

// Dialer dials a node's proxy instead of the node: plug it into a client so that
// addresses learnt at run time (a master named by sentinels) are slowed too.
func (n *Network) Dialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, n.ProxyAddr(addr))
	}
}

// MeasureAddedRTT pings every node directly and through its proxy, samples times each,
// and returns by node name the median round trip through the proxy minus the direct one.
func (n *Network) MeasureAddedRTT(ctx context.Context, samples int) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for upstream, p := range n.proxies {
		direct, err := medianPing(ctx, upstream, samples)
		if err != nil {
			return nil, fmt.Errorf("ping %s directly: %w", n.names[upstream], err)
		}
		proxied, err := medianPing(ctx, p.Listen, samples)
		if err != nil {
			return nil, fmt.Errorf("ping %s through its proxy: %w", n.names[upstream], err)
		}
		out[n.names[upstream]] = proxied - direct
	}
	return out, nil
}

// medianPing is the median PING round trip to addr over one warm connection.
func medianPing(ctx context.Context, addr string, samples int) (time.Duration, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 1, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
	defer c.Close()
	if err := c.Ping(ctx).Err(); err != nil { // dial and handshake outside the samples
		return 0, err
	}
	rtts := make([]time.Duration, samples)
	for i := range rtts {
		start := time.Now()
		if err := c.Ping(ctx).Err(); err != nil {
			return 0, err
		}
		rtts[i] = time.Since(start)
	}
	sort.Slice(rtts, func(i, j int) bool { return rtts[i] < rtts[j] })
	return rtts[len(rtts)/2], nil
}

// Close stops every proxy and drops their connections.
func (n *Network) Close() {
	for _, p := range n.proxies {
		p.Stop()
	}
}
