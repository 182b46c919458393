package locks

// LossNotifier is a Locker whose library tells a holder that its lock is gone before
// the lease's own end: rueidislock watches its key (an invalidation, or its next
// extension) and ends the lock. The other libraries never tell: a holder learns of a
// lost lock only when a later call fails.
type LossNotifier interface {
	// Lost returns a channel closed once lease's lock has ended for any reason (lost,
	// given back, past its TTL); false when the locker does not hold lease (any more).
	Lost(lease Lease) (<-chan struct{}, bool)
}
