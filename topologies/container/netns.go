package container

import (
	"fmt"
	"strconv"
)

// NetNS is the path of the network namespace of n's running container: a client that
// opens its sockets there reaches the others through n's links, so a Cut of n cuts it too.
func (n *Server) NetNS() (string, error) {
	p := n.topo.procOf(n)
	if !p.running() {
		return "", fmt.Errorf("%s: not running, no network namespace", n.name)
	}
	return "/proc/" + strconv.Itoa(p.pid) + "/ns/net", nil
}
