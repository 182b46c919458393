package redisconn

import (
	"context"
	"net"

	"github.com/redis/go-redis/v9"
)

// allowHook enforces purpose's allow-list on one client: a command not on it (alone,
// in a pipeline or a transaction), or naming a key outside prefix when one is set,
// fails with a RefusedError and is never written.
type allowHook struct {
	purpose, prefix string
	allowed         map[string]bool // allowSets[purpose], looked up once, not per command
}

func newAllowHook(purpose, prefix string) allowHook {
	return allowHook{purpose: purpose, prefix: prefix, allowed: allowSets[purpose]}
}

// check reads the command's name once for both checks: it runs on every command.
func (h allowHook) check(args []any) error {
	name := lookupName(args)
	if !h.allowed[name] {
		return &RefusedError{Purpose: h.purpose, Command: CommandName(args)}
	}
	return checkKeys(h.purpose, h.prefix, name, args)
}

func (h allowHook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return next(ctx, network, addr) }
}

func (h allowHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if err := h.check(cmd.Args()); err != nil {
			cmd.SetErr(err)
			return err
		}
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook refuses the whole pipeline if one command is refused: sending
// the others would split what the caller meant as one round trip.
func (h allowHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if cmd.Name() == "multi" || cmd.Name() == "exec" {
				continue // a transaction's wrapper, added by go-redis around the caller's commands
			}
			if err := h.check(cmd.Args()); err != nil {
				for _, c := range cmds {
					c.SetErr(err)
				}
				return err
			}
		}
		return next(ctx, cmds)
	}
}

// Guard installs purpose's allow-list on c; every locker's client, and every client a
// run points at servers lockbench does not own, passes through here (NewClient,
// the sentinel strategy, cleanup, probes, the rendezvous). The admin and observer
// clients of servers lockbench started itself do not: they configure and break them.
// keyPrefix, when set (servers lockbench does not own), bounds every key it names.
func Guard(c *redis.Client, purpose, keyPrefix string) *redis.Client {
	c.AddHook(newAllowHook(purpose, keyPrefix))
	return c
}

// AllowListHook is purpose's allow-list as a hook, for a client Guard cannot take (a
// sentinel client).
func AllowListHook(purpose string) redis.Hook { return newAllowHook(purpose, "") }
