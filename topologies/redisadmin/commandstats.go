package redisadmin

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// CommandCounter reads how many commands one server has executed since it started, by
// its own count (INFO commandstats), less the INFO calls: so that two readings around a
// run count the run's commands and not the readings. Its one connection stays open
// between readings, so that no set-up of its own (HELLO) lands between them.
type CommandCounter struct {
	addr string
	c    *redis.Client
}

// NewCommandCounter counts the commands of the server at addr.
func NewCommandCounter(addr string) *CommandCounter {
	return &CommandCounter{addr: addr, c: AdminClient(addr)}
}

// Close closes its connection.
func (cc *CommandCounter) Close() error { return cc.c.Close() }

// Served is the server's count now.
func (cc *CommandCounter) Served(ctx context.Context) (int64, error) {
	fields, err := infoFieldsOn(ctx, cc.c, "commandstats")
	if err != nil {
		return 0, err
	}
	var total int64
	for name, stats := range fields {
		if !strings.HasPrefix(name, "cmdstat_") || name == "cmdstat_info" {
			continue
		}
		calls, err := callsOf(stats)
		if err != nil {
			return 0, fmt.Errorf("%s: %s: %w", cc.addr, name, err)
		}
		total += calls
	}
	return total, nil
}

// callsOf reads calls=N from a commandstats line's value ("calls=3,usec=12,...").
func callsOf(stats string) (int64, error) {
	for _, field := range strings.Split(stats, ",") {
		if v, ok := strings.CutPrefix(field, "calls="); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("no calls= in %q", stats)
}
