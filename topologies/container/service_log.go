package container

import (
	"context"
	"io"
	"strings"
	"time"
)

// containerLog is the end of n's container output, for errors (the engine multiplexes
// stdout and stderr with 8-byte frame headers: unprintable bytes are dropped).
func containerLog(n *Server) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := n.topo.eng.Logs(ctx, n.id, 15)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	defer r.Close()
	b, _ := io.ReadAll(io.LimitReader(r, 4096))
	s := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || (r >= ' ' && r != 0x7f && r != 0xfffd) {
			return r
		}
		return -1
	}, string(b))
	return strings.TrimSpace(s)
}
