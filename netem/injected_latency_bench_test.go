package netem_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
	"github.com/redis/go-redis/v9"
)

// BenchmarkInjectedLatency asks the proxy for 1, 5 and 20 ms each way and measures, on
// one warm connection, what a PING round trip really gains over the direct path: one
// op is one PING through the proxy. It reports the asked round trip (2 x latency), the
// measured median gain over the direct median, and the relative error between them.
func BenchmarkInjectedLatency(b *testing.B) {
	topo := testenv.Start(b, backend.Spec{Kind: topologies.Single})
	upstream := topo.Masters()[0].Addr()
	for _, oneWay := range []time.Duration{time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
		b.Run(fmt.Sprintf("oneway=%v", oneWay), func(b *testing.B) {
			network, err := netem.Start(topo, netem.Profile{Name: "uniform", Latency: oneWay}, 1)
			if err != nil {
				b.Fatal(err)
			}
			defer network.Close()
			proxied := warmClient(b, network.ProxyAddr(upstream))
			direct := warmClient(b, upstream)
			through := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				through = append(through, timedPing(b, proxied))
			}
			b.StopTimer()
			base := make([]time.Duration, 0, max(b.N, 21)) // the direct path, same count, untimed
			for range cap(base) {
				base = append(base, timedPing(b, direct))
			}
			asked := 2 * oneWay
			added := median(through) - median(base)
			b.ReportMetric(ms(asked), "asked-rtt-ms")
			b.ReportMetric(ms(added), "added-rtt-ms")
			b.ReportMetric(ms(median(through)), "proxied-rtt-ms")
			b.ReportMetric(100*(float64(added)/float64(asked)-1), "err-%")
		})
	}
}

// warmClient is one connection to addr, dialled and greeted before any sample.
func warmClient(b *testing.B, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 1, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
	b.Cleanup(func() { c.Close() })
	if err := c.Ping(context.Background()).Err(); err != nil {
		b.Fatal(err)
	}
	return c
}

func timedPing(b *testing.B, c *redis.Client) time.Duration {
	start := time.Now()
	if err := c.Ping(context.Background()).Err(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
