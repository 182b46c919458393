package etcdtopo

// DirectClientAddr is where in-process member i of c listens for clients, behind its
// client gate.
func DirectClientAddr(c *Cluster, i int) string { return c.members[i].(*member).server().ClientAddr() }
