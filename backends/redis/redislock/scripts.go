package redislock

import "github.com/redis/go-redis/v9"

// Compare-and-delete and compare-and-pexpire: one server-side step each, so that a
// key that expired and was retaken between a GET and a DEL is never touched.
var (
	releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0`)
	extendScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)
)
