// Package netem puts in-process toxiproxy proxies in front of a topology's nodes to
// add network latency in user space (these machines have no sch_netem), and measures
// the delay the proxies really add.
package netem

import (
	"fmt"
	"strings"
	"time"
)

// Profile names a network condition between the lock clients and the servers.
type Profile struct {
	// Name is none, uniform or one-slow.
	Name string
	// Latency is added in each direction (so a round trip gains twice it), to every
	// node under uniform, to SlowNode only under one-slow.
	Latency time.Duration
	// Jitter spreads Latency uniformly by +-Jitter, seeded.
	Jitter time.Duration
	// SlowNode is the node slowed under one-slow (default: the first master).
	SlowNode string
}

// String is the profile in the form ParseProfile reads.
func (p Profile) String() string {
	switch p.Name {
	case "uniform":
		if p.Jitter > 0 {
			return fmt.Sprintf("uniform:%v~%v", p.Latency, p.Jitter)
		}
		return fmt.Sprintf("uniform:%v", p.Latency)
	case "one-slow":
		if p.SlowNode != "" {
			return fmt.Sprintf("one-slow:%v@%s", p.Latency, p.SlowNode)
		}
		return fmt.Sprintf("one-slow:%v", p.Latency)
	}
	return p.Name
}

// ParseProfile reads none, uniform:LAT[~JITTER] or one-slow:LAT[@NODE],
// e.g. uniform:5ms~1ms or one-slow:20ms@master-2.
func ParseProfile(s string) (Profile, error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(s), ":")
	p := Profile{Name: name}
	switch name {
	case "none":
		if arg != "" {
			return p, fmt.Errorf("network profile %q: none takes no latency", s)
		}
		return p, nil
	case "uniform":
		lat, jit, _ := strings.Cut(arg, "~")
		if err := parseMillis(s, "latency", lat, &p.Latency); err != nil {
			return p, err
		}
		if jit != "" {
			if err := parseMillis(s, "jitter", jit, &p.Jitter); err != nil {
				return p, err
			}
			if p.Jitter > p.Latency {
				return p, fmt.Errorf("network profile %q: jitter %v exceeds latency %v", s, p.Jitter, p.Latency)
			}
		}
		return p, nil
	case "one-slow":
		lat, node, _ := strings.Cut(arg, "@")
		p.SlowNode = node
		return p, parseMillis(s, "latency", lat, &p.Latency)
	}
	return p, fmt.Errorf("unknown network profile %q: want none, uniform:LAT[~JITTER] or one-slow:LAT[@NODE]", s)
}

func parseMillis(profile, field, s string, d *time.Duration) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("network profile %q: %s %q: %v", profile, field, s, err)
	}
	if v <= 0 || v%time.Microsecond != 0 {
		return fmt.Errorf("network profile %q: %s %v must be a positive whole number of microseconds", profile, field, v)
	}
	*d = v
	return nil
}
