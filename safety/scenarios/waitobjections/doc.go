// Package waitobjections answers the objections to WAIT as the fix for failover loss
// (wait-objections): the lagging replica promoted by replica-priority, the
// acknowledging replica dying with the master, master and acknowledger restarting
// empty, and what WAIT costs per grant.
package waitobjections
