package redisadmin

import (
	"context"
	"fmt"
)

// RunningServer reads which server answers at addr and its version from INFO server:
// "valkey 8.0.1" (Valkey also reports the Redis version it forked from as
// redis_version, so valkey_version is asked first) or "redis 7.0.15".
func RunningServer(ctx context.Context, addr string) (string, error) {
	fields, err := infoFields(ctx, addr, "server")
	if err != nil {
		return "", fmt.Errorf("INFO server on %s: %w", addr, err)
	}
	if v, ok := fields["valkey_version"]; ok {
		return "valkey " + v, nil
	}
	if v, ok := fields["redis_version"]; ok {
		return "redis " + v, nil
	}
	return "", fmt.Errorf("INFO server on %s: neither valkey_version nor redis_version", addr)
}
