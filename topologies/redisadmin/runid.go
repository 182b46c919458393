package redisadmin

import (
	"context"
	"fmt"
)

// RunID is the server's run_id: a new one after every start, so a fault that claims
// to have restarted a node can be checked.
func RunID(ctx context.Context, addr string) (string, error) {
	f, err := infoFields(ctx, addr, "server")
	if err != nil {
		return "", err
	}
	id := f["run_id"]
	if id == "" {
		return "", fmt.Errorf("%s: INFO server has no run_id", addr)
	}
	return id, nil
}
