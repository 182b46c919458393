package results

// WaitShort: WAIT samples of the cost measurement (wait-objections) that returned
// fewer acknowledgements than asked within WAIT's timeout.
const WaitShort Measure = "wait_acks_short"

// GrantsRefused: first grants the store refused on purpose in a judged trial whose
// fault (every replica lagging past min-replicas-max-lag, as the master counts them)
// was proven: no lock was granted, so none was there to lose. A count of its own,
// never read as a lock kept.
const GrantsRefused Measure = "grants_refused"
