package redisconn

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type discardLog struct{}

func (discardLog) Printf(context.Context, string, ...any) {}

// SilenceClientLogs stops go-redis from printing (sentinel master changes, dial
// retries) into output that tools such as benchstat parse line by line.
func SilenceClientLogs() { redis.SetLogger(discardLog{}) }
