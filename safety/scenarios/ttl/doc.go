// Package ttl reproduces what a lease's TTL trades: a holder paused longer than its
// lease, with or without a watchdog, on Redis and on etcd, against a fenced resource
// (pause-past-ttl; its boundary mode stops just below and just above the lease left,
// the pause model's boundary), and the chance the TTL expires mid-work against how
// long a crashed holder's lock stays blocked (ttl-tradeoff).
package ttl
