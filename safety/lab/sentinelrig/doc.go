// Package sentinelrig is the Redis Sentinel failover the scenarios share: deployments
// kept and re-formed between trials, the guard of a grant (WAIT, min-replicas, zombie),
// sentinel's timers, and the proofs a failover trial reads back (the cut held, what the
// promoted master holds, B's grant there).
package sentinelrig
