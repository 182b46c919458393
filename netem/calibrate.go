package netem

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	// calibrationSamples pings each way per node at least, taken over calibrationWindow at
	// least: a burst of load on the machine must cover most of the window to move the
	// median; a 20 ms profile calibrates in about half a second per node.
	calibrationSamples = 11
	calibrationWindow  = 400 * time.Millisecond
	// maxPathLead bounds the correction per hop. What it corrects measured tens of µs
	// here; a larger figure means calibration caught a burst of load on the machine,
	// and leading by it would make every later chunk early.
	maxPathLead = 200 * time.Microsecond
)

// calibrate pings each slowed node directly and through its proxy and has its toxics
// deliver earlier (or later) by half of what the round trip gained beyond the asked
// 2 x latency. That residue is the proxy path's own cost plus the wake-ups a real delay
// brings (an idle process and server wake slower than busy ones), which the toxics
// cannot see from inside: only a round trip shows it.
func (n *Network) calibrate(ctx context.Context) error {
	for upstream, held := range n.toxics {
		gain, err := medianGain(ctx, upstream, n.proxies[upstream].Listen, pingRun(n.profile.Latency))
		if err != nil {
			return fmt.Errorf("calibrate %s: %w", n.names[upstream], err)
		}
		lead := min(max((gain-2*n.profile.Latency)/2, -maxPathLead), maxPathLead)
		for _, t := range held {
			t.setPathLead(lead)
		}
	}
	return nil
}

// pingRun is how many pings calibration takes back to back each way: a proxied run
// lasts about an eighth of the window, so several runs alternate within it.
func pingRun(latency time.Duration) int {
	return max(1, min(32, int(calibrationWindow/8/(2*latency))))
}

// medianGain is the median PING round trip through proxied minus the median one to
// direct, each taken in runs of run pings back to back, the runs alternating so that
// both sides share the machine's load of the moment. Runs, not single pairs: a ping
// right after a delayed one finds the server idle for a while and slower to wake,
// which would count against the direct path and leave the gain short.
func medianGain(ctx context.Context, direct, proxied string, run int) (time.Duration, error) {
	dc, err := warmPinger(ctx, direct)
	if err != nil {
		return 0, fmt.Errorf("ping directly: %w", err)
	}
	defer dc.Close()
	pc, err := warmPinger(ctx, proxied)
	if err != nil {
		return 0, fmt.Errorf("ping through the proxy: %w", err)
	}
	defer pc.Close()
	var near, far []time.Duration
	for start := time.Now(); len(far) < calibrationSamples || time.Since(start) < calibrationWindow; {
		for range run {
			d, err := timePing(ctx, dc)
			if err != nil {
				return 0, err
			}
			near = append(near, d)
		}
		for range run {
			p, err := timePing(ctx, pc)
			if err != nil {
				return 0, err
			}
			far = append(far, p)
		}
	}
	slices.Sort(near)
	slices.Sort(far)
	return far[len(far)/2] - near[len(near)/2], nil
}

// warmPinger is one connection to addr, dialled and greeted outside any sample.
func warmPinger(ctx context.Context, addr string) (*redis.Client, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 1, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func timePing(ctx context.Context, c *redis.Client) (time.Duration, error) {
	start := time.Now()
	err := c.Ping(ctx).Err()
	return time.Since(start), err
}

// calibrateTimeout bounds calibrate: a node that does not answer fails Start, never hangs it.
func calibrateTimeout(latency time.Duration) time.Duration {
	return 10*time.Second + calibrationWindow + 4*calibrationSamples*latency
}
