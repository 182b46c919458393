package backend

import (
	"fmt"
	"slices"
	"strings"
)

// The server flavours a Redis-protocol kind runs on: Redis itself, or Valkey, its fork
// (8.x: WAITAOF and what many managed services now run). Empty means Redis.
const (
	ServerRedis  = "redis"
	ServerValkey = "valkey"
)

// ServerFlavours lists the names Spec.Server and the --server flags take.
func ServerFlavours() []string { return []string{ServerRedis, ServerValkey} }

// ParseServerFlavour checks a flavour given by a user; empty stays empty (Redis).
func ParseServerFlavour(name string) (string, error) {
	switch name {
	case "", ServerRedis, ServerValkey:
		return name, nil
	}
	return "", fmt.Errorf("server %q: want %s", name, strings.Join(ServerFlavours(), " or "))
}

// FlavourOf is the flavour s runs on, Redis when none is named.
func (s Spec) FlavourOf() string {
	if s.Server == "" {
		return ServerRedis
	}
	return s.Server
}

// checkServer refuses an unknown flavour, and one the kind's store does not run.
func (s Spec) checkServer(c *Catalog) error {
	if _, err := ParseServerFlavour(s.Server); err != nil || s.Server == "" {
		return err
	}
	sh, err := c.Lookup(s.Kind)
	if err != nil {
		return err
	}
	if !slices.Contains(sh.Flavours(), s.Server) {
		return fmt.Errorf("server %q: only Redis's kinds have a server flavour, not %s", s.Server, s.Kind)
	}
	return nil
}
