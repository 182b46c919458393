package container

import "github.com/lockbench/lockbench/topologies"

// distinctPorts picks k free ports, no two alike: the wire rules tell peers apart by port.
func distinctPorts(k int) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for len(out) < k {
		p, err := topologies.FreePort()
		if err != nil {
			return nil, err
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// isPaused reports whether n is frozen (Pause without Resume).
func (n *node) isPaused() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.paused
}
