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

// AppendFsync is the append-only-file policy the server at addr runs: "" when it keeps
// no AOF, else no, everysec or always, as CONFIG GET answers.
func AppendFsync(ctx context.Context, addr string) (string, error) {
	c := AdminClient(addr)
	defer c.Close()
	fields, err := infoFieldsOn(ctx, c, "persistence")
	if err != nil {
		return "", fmt.Errorf("INFO persistence on %s: %w", addr, err)
	}
	if fields["aof_enabled"] != "1" {
		return "", nil
	}
	kv, err := c.ConfigGet(ctx, "appendfsync").Result()
	if err != nil {
		return "", fmt.Errorf("CONFIG GET appendfsync on %s: %w", addr, err)
	}
	return kv["appendfsync"], nil
}

// AOFRewriting says whether the server at addr is rewriting its append-only file or has
// a rewrite scheduled: a replica does so after each full sync, and until it is done the
// writes it applies go to a temporary file that appendfsync does not cover.
func AOFRewriting(ctx context.Context, addr string) (bool, error) {
	fields, err := infoFields(ctx, addr, "persistence")
	if err != nil {
		return false, fmt.Errorf("INFO persistence on %s: %w", addr, err)
	}
	return fields["aof_rewrite_in_progress"] != "0" || fields["aof_rewrite_scheduled"] != "0", nil
}
