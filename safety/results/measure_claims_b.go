package results

// The measures of the TTL trade-off and of the objections to WAIT, listed in Measures
// so that the tables and tallies show them.
const (
	// ExpiredMidWork: the holder's own read of its key at the end of its work (or one
	// read before the end) found the key gone or another's: the TTL ran out mid-work.
	ExpiredMidWork Measure = "expired_mid_work"
	// BlockedShort: after its holder crashed, another client got the lock sooner than
	// the TTL allows, beyond the measured round trip of the holder's last write.
	BlockedShort Measure = "blocked_shorter_than_ttl"
	// WatchdogLate: a watchdog's extension (or the holder's final read) answered a TTL
	// or more after the previous write was sent: the process ran late, as in a pause.
	WatchdogLate Measure = "watchdog_late"
	// ExpiredOnTime: expired mid-work although the watchdog ran on time.
	ExpiredOnTime Measure = "expired_watchdog_on_time"
)

// ProbesUnseen: replication-lag probes (a SET on the master) that some replica had
// not shown within the poll timeout.
const ProbesUnseen Measure = "probes_unseen"
