package container

import "github.com/lockbench/lockbench/topologies"

// leasePort leases a free loopback port for t's life: Close ends every lease.
func (t *topology) leasePort() (int, error) {
	p, err := topologies.FreePort()
	if err != nil {
		return 0, err
	}
	t.leaseMu.Lock()
	t.leased = append(t.leased, p)
	t.leaseMu.Unlock()
	return p, nil
}

// releasePorts ends the leases leasePort took.
func (t *topology) releasePorts() {
	t.leaseMu.Lock()
	defer t.leaseMu.Unlock()
	for _, p := range t.leased {
		topologies.ReleasePort(p)
	}
	t.leased = nil
}

// distinctPorts leases k ports (a lease is never handed out twice, so no two alike: the
// wire rules tell peers apart by port).
func (t *topology) distinctPorts(k int) ([]int, error) {
	out := make([]int, 0, k)
	for len(out) < k {
		p, err := t.leasePort()
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// isPaused reports whether n is frozen (Pause without Resume).
func (n *Server) isPaused() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.paused
}
