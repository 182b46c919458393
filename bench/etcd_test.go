package bench_test

// The etcd strategies (etcd, etcd-3 and their unsafe no-fsync variants) register
// themselves and their embedded-etcd provider on import, so BenchmarkAcquireRelease
// measures the consensus baseline beside the Redis strategies in the same run. Only
// this test binary carries etcd: package bench itself does not import it.
import _ "github.com/lockbench/lockbench/locks/etcdlock"
