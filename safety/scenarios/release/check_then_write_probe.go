package release

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
)

// lockCheck is how a holder asks whether its lock is still valid.
type lockCheck string

const (
	checkByGet  lockCheck = "get"  // GET key == my token
	checkByPTTL lockCheck = "pttl" // PTTL key > 0: the key still has time left
)

// askValid asks the server, as the holder's process would, whether lease still holds;
// left is the PTTL seen (0 for the GET check).
func askValid(ctx context.Context, c *redis.Client, how lockCheck, lease locks.Lease) (valid bool, left time.Duration,
	err error) {
	switch how {
	case checkByGet:
		owner, err := c.Get(ctx, lease.Key).Result()
		if errors.Is(err, redis.Nil) {
			return false, 0, nil
		}
		return err == nil && owner == lease.Token, 0, err
	case checkByPTTL:
		left, err := c.PTTL(ctx, lease.Key).Result()
		return err == nil && left > 0, left, err
	}
	return false, 0, fmt.Errorf("unknown lock check %q", how)
}
