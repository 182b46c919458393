package external

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// ProbeTimeout bounds the first answer of a deployment's servers: the probe as a whole,
// and each store's dial.
const ProbeTimeout = 5 * time.Second

// probe proves every server answers and reads its version, with the store's own probe:
// a server that answers but will not say its version is recorded as such; one that
// does not answer is an error. The store may replace the servers it was given.
func (t *topology) probe(ctx context.Context) ([]resultsdir.ExternalServer, error) {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	return t.store.Probe(ctx, &t.servers)
}
