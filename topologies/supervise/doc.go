// Package supervise runs a server as a supervised child process, the one way every
// process provider (redis-server, etcd, ZooKeeper, PostgreSQL) runs its servers: started
// in its own process group with a parent-death signal from a thread that never exits,
// tracked by a SIGINT/SIGTERM reaper, waited for through a readiness probe, and killed,
// paused, resumed and restarted on the same address by signals to its whole group. A
// start that fails says why from what the child logged since it began, and says
// ErrPortTaken when another program bound its port first, so that callers pick anew.
package supervise
