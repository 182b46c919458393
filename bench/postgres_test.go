package bench_test

// The PostgreSQL strategies (pg-advisory, pg-for-update) register themselves and their
// postgres-process provider on import, so BenchmarkAcquireRelease measures them beside
// the Redis strategies in the same run. Only this test binary carries the driver:
// package bench itself does not import it.
import _ "github.com/lockbench/lockbench/backends/postgres/pglock"
