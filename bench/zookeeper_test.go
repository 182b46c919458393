package bench_test

// The ZooKeeper strategies (zookeeper, zookeeper-3) register themselves and their
// zookeeper-process provider on import, so BenchmarkAcquireRelease measures them beside
// etcd and the Redis strategies in the same run. Only this test binary carries the
// ZooKeeper client: package bench itself does not import it.
import _ "github.com/lockbench/lockbench/backends/zookeeper/zklock"
