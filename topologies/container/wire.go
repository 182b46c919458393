package container

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Every node listens inside its container on the port it is published on, and every
// server announces 127.0.0.1 (replica-announce-ip, sentinel announce-ip): the topology
// speaks of 127.0.0.1:port exactly as the process provider's does, so sentinels hand
// clients on the host addresses they can dial. Inside each container's network
// namespace, rules applied from the host (never to the host's own rules) carry
// 127.0.0.1:port of every other node to that node's container IP; a second chain drops
// the links a partition cut.
const (
	wireChain = "LOCKBENCH-WIRE"
	cutChain  = "LOCKBENCH-CUT"
)

// peer is what one node's rules need to know of another.
type peer struct {
	ports []int  // the published port first, then those only peers use (quorum, election, raft)
	ip    string // empty while the peer's container is not running
	cut   bool   // the link to this peer is cut
}

// rules is the iptables-restore input that fills both chains for a node with these peers;
// declaring a chain in a --noflush restore empties it first, so each call replaces the last.
func rules(peers []peer) string {
	var b strings.Builder
	b.WriteString("*nat\n:" + wireChain + " - [0:0]\n")
	for _, p := range peers {
		for _, port := range p.ports {
			if p.ip != "" {
				fmt.Fprintf(&b, "-A %s -p tcp --dport %d -j DNAT --to-destination %s:%d\n", wireChain, port, p.ip, port)
			}
		}
	}
	b.WriteString("COMMIT\n*filter\n:" + cutChain + " - [0:0]\n")
	for _, p := range peers {
		if p.cut && p.ip != "" {
			fmt.Fprintf(&b, "-A %s -s %s/32 -j DROP\n-A %s -d %s/32 -j DROP\n", cutChain, p.ip, cutChain, p.ip)
		}
	}
	b.WriteString("COMMIT\n")
	return b.String()
}

// hooks send loopback connections through the wire chain (and masquerade them, since a
// packet from 127.0.0.1 may not leave the namespace) and all traffic through the cut chain.
// They are added once per container start: a restarted container has a new namespace.
const hooks = `iptables -w -t nat -A OUTPUT -d 127.0.0.1/32 -p tcp -j ` + wireChain + ` &&
iptables -w -t nat -A POSTROUTING -s 127.0.0.1/32 ! -o lo -j MASQUERADE &&
iptables -w -I INPUT -j ` + cutChain + ` &&
iptables -w -I OUTPUT -j ` + cutChain

// applyRules runs inside the network namespace of process pid (the container's init),
// with the host's iptables: the container needs no capability and no tools.
func applyRules(pid int, peers []peer, withHooks bool) error {
	script := "iptables-restore -w --noflush"
	if withHooks {
		script += " && " + hooks
	}
	cmd := exec.Command("nsenter", "-t", strconv.Itoa(pid), "-n", "sh", "-c", script)
	cmd.Stdin = strings.NewReader(rules(peers))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("packet filter rules in the namespace of pid %d (nsenter and iptables must be installed: apt-get "+
			"install util-linux iptables): %w: %s", pid, err, strings.TrimSpace(out.String()))
	}
	return nil
}
