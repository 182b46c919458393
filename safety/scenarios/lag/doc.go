// Package lag measures replication lag (replication-lag): SET acknowledged on the
// master to visible on each replica, against the background write rate, beside
// failover-loss's chance of a lost lock against the kill delay.
package lag
