package container

import (
	"context"
	"os/exec"
	"strconv"

	"github.com/lockbench/lockbench/topologies"
)

// Remaining lists what of topo's containers and network the engine still knows.
func Remaining(topo topologies.Topology) []string {
	t := unwrap(topo)
	return Existing(t.trackedIDs(), t.netID)
}

// Existing lists which of these containers and network the engine still knows.
func Existing(ids []string, networkID string) []string {
	ctx := context.Background()
	c, err := engine(ctx)
	if err != nil {
		return []string{err.Error()}
	}
	containers, networks, err := c.Labelled(ctx, labelApp, "1")
	if err != nil {
		return []string{err.Error()}
	}
	known := map[string]bool{}
	for _, it := range append(containers, networks...) {
		known[it.ID] = true
	}
	var left []string
	for _, id := range ids {
		if known[id] {
			left = append(left, "container "+id)
		}
	}
	if known[networkID] {
		left = append(left, "network "+networkID)
	}
	return left
}

// Handles returns topo's container ids and network id.
func Handles(topo topologies.Topology) ([]string, string) {
	t := unwrap(topo)
	return t.trackedIDs(), t.networkID()
}

// Cuts counts the links topo holds cut.
func Cuts(topo topologies.Topology) int {
	t := unwrap(topo)
	t.wireMu.Lock()
	defer t.wireMu.Unlock()
	return len(t.cuts)
}

// Owned lists the containers and networks labelled with this program's pid.
func Owned() []string {
	ctx := context.Background()
	c, err := engine(ctx)
	if err != nil {
		return nil // no engine: the tests skipped
	}
	containers, networks, _ := c.Labelled(ctx, labelOwner, ownerLabels()[labelOwner])
	var out []string
	for _, it := range containers {
		out = append(out, "container "+it.ID)
	}
	for _, it := range networks {
		out = append(out, "network "+it.ID)
	}
	return out
}

// FilterRules prints the cut chain inside n's network namespace, as iptables -S does.
func FilterRules(n topologies.Node) (string, error) {
	nd := n.(*Server)
	out, err := exec.Command("nsenter", "-t", strconv.Itoa(nd.topo.procOf(nd).pid), "-n", "iptables", "-w", "-S", cutChain).CombinedOutput()
	return string(out), err
}

// NetworkID is the ID of the network a topology this provider started runs on.
func NetworkID(topo topologies.Topology) string { return topo.(*Topology).networkID() }

// PauseUntilFrozen is pauseUntilFrozen, for the tests.
var PauseUntilFrozen = pauseUntilFrozen
