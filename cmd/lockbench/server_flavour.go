package main

import (
	"flag"
	"strings"

	"github.com/lockbench/lockbench/backend"
)

// registerServerFlavour is the --server flag of the commands that start Redis's kinds.
func registerServerFlavour(fs *flag.FlagSet, into *string) {
	fs.StringVar(into, "server", "", "the server the Redis kinds run on: "+strings.Join(backend.ServerFlavours(), " or ")+
		" (default: each strategy's own, redis unless it needs valkey's WAITAOF); --provider process only")
}
