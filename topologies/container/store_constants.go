package container

import "time"

// The other stores' settings this provider shares with their process providers. It
// cannot import pgtopo, zktopo or etcdtopo (their tests import topologies/testenv, which
// imports this package): TestContainerStoreConstantsMatchProcessProviders checks they agree.
const (
	pgUser     = "lockbench" // pgtopo.User: the superuser every server gets
	pgDatabase = "lockbench" // pgtopo.Database

	zkTickTime          = 200 * time.Millisecond // zktopo.DefaultTickTime
	zkMaxSessionTimeout = time.Minute            // zktopo.MaxSessionTimeout

	etcdMemberEnv  = "LOCKBENCH_ETCD_MEMBER" // etcdtopo.MemberEnv: run as that member
	etcdCompaction = time.Second             // etcdtopo.DefaultCompactionRetention
)
