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
	"github.com/rs/zerolog"
)

// Network is a set of proxies, one per node, applying one profile.
type Network struct {
	profile Profile
	server  *toxiproxy.ApiServer
	proxies map[string]*toxiproxy.Proxy  // by upstream (real) address
	names   map[string]string            // upstream address -> node name
	toxics  map[string][]*preciseLatency // by upstream, on slowed nodes only
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
		toxics:  map[string][]*preciseLatency{},
	}
	slow := profile.SlowNode
	if profile.Name == "one-slow" && slow == "" {
		slow = topo.Masters()[0].Name()
	}
	found := false
	var lead time.Duration
	if profile.Name != "none" {
		lead = wakeLateness(15)
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
		held, err := addLatency(p, profile.Latency, profile.Jitter, lead, seed+uint64(2*i))
		if err != nil {
			n.Close()
			return nil, fmt.Errorf("latency on %s: %w", node.Name(), err)
		}
		n.toxics[node.Addr()] = held
	}
	if profile.Name == "one-slow" && !found {
		n.Close()
		return nil,
			fmt.Errorf("network profile %s: no node named %q (nodes: %s)", profile, slow, strings.Join(nodeNames(topo), ", "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), calibrateTimeout(profile.Latency))
	defer cancel()
	if err := n.calibrate(ctx); err != nil {
		n.Close()
		return nil, err
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

// addLatency delays both directions, so a round trip gains twice the latency; lead is
// the first estimate of how late a wake-up comes, which the toxics deduct.
func addLatency(p *toxiproxy.Proxy, latency, jitter, lead time.Duration, seed uint64) ([]*preciseLatency, error) {
	var held []*preciseLatency
	for i, stream := range []string{"upstream", "downstream"} {
		spec := fmt.Sprintf(
			`{"name":"latency_%s","type":%q,"stream":%q,"attributes":{"latency_us":%d,"jitter_us":%d,"lead_us":%d,"seed":%d}}`,
			stream, preciseLatencyType, stream, latency.Microseconds(), jitter.Microseconds(), lead.Microseconds(), seed+
				uint64(i))
		w, err := p.Toxics.AddToxicJson(strings.NewReader(spec))
		if err != nil {
			return nil, err
		}
		held = append(held, w.Toxic.(*preciseLatency))
	}
	return held, nil
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
	c, err := warmPinger(ctx, addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	rtts := make([]time.Duration, samples)
	for i := range rtts {
		if rtts[i], err = timePing(ctx, c); err != nil {
			return 0, err
		}
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
