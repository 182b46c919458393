package container

import (
	"context"
	"os/exec"
	"strconv"

	"github.com/moby/moby/client"

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
	var left []string
	for _, id := range ids {
		if _, err := c.ContainerInspect(ctx, id, client.ContainerInspectOptions{}); !isNotFound(err) {
			left = append(left, "container "+id)
		}
	}
	if _, err := c.NetworkInspect(ctx, networkID, client.NetworkInspectOptions{}); !isNotFound(err) {
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
	f := client.Filters{}.Add("label", labelOwner+"="+ownerLabels()[labelOwner])
	var out []string
	if list, err := c.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f}); err == nil {
		for _, it := range list.Items {
			out = append(out, "container "+it.ID)
		}
	}
	if list, err := c.NetworkList(ctx, client.NetworkListOptions{Filters: f}); err == nil {
		for _, it := range list.Items {
			out = append(out, "network "+it.Name)
		}
	}
	return out
}

// FilterRules prints the cut chain inside n's network namespace, as iptables -S does.
func FilterRules(n topologies.Node) (string, error) {
	nd := n.(*Server)
	out, err := exec.Command("nsenter", "-t", strconv.Itoa(nd.topo.pidOf(nd)), "-n", "iptables", "-w", "-S", cutChain).CombinedOutput()
	return string(out), err
}

// NetworkID is the ID of the network a topology this provider started runs on.
func NetworkID(topo topologies.Topology) string { return topo.(*Topology).networkID() }
