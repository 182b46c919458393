// Package failover reproduces the lock Redis Sentinel loses when it promotes a replica
// that never received the grant (failover-loss): the master killed at drawn delays
// after the grant under each guard (none, WAIT, min-replicas), and the zombie master
// that takes writes after it was stopped through the failover and resumed.
package failover
