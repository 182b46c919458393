package campaign

// The sweeps a campaign plans ask each strategy's store what it can do (network
// profiles): the tests register the stores of the strategies they plan, Redis's and
// the cluster's, as cmd/lockbench registers every store.
import (
	_ "github.com/lockbench/lockbench/backends/redis/redisstore"
	_ "github.com/lockbench/lockbench/backends/rediscluster/clusterstore"
)
