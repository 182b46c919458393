package lab

import "fmt"

// Shard is worker Index (from 0) of Of running one campaign; Of 0 is the whole run.
// Trial n belongs to worker n % Of: every worker's share of a variant is spread over
// its trial indices, so the N shards together hold each index exactly once.
type Shard struct {
	Index, Of int
}

// Whole says whether the shard is the whole run.
func (s Shard) Whole() bool { return s.Of == 0 }

// Holds says whether trial n is this shard's.
func (s Shard) Holds(n int) bool { return s.Whole() || n%s.Of == s.Index }

// Check refuses a shard outside 0 <= Index < Of.
func (s Shard) Check() error {
	if s.Of < 0 || (s.Of > 0 && (s.Index < 0 || s.Index >= s.Of)) {
		return fmt.Errorf("worker %d/%d: the index counts from 0 and must be below the number of workers", s.Index, s.Of)
	}
	return nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Of) }

// errOutsideShard is a scenario running a trial that is not this worker's: its loop
// does not go through TrialsOf (a bisection choosing its next probe from the last),
// so its trials cannot be split over workers.
func errOutsideShard(scenario string, n int, s Shard) error {
	return fmt.Errorf("scenario %s ran trial %d, which is not worker %s's: its trials do not go through the shared "+
		"loop, so it cannot be split over workers; run it without --worker", scenario, n, s)
}

// checkShard refuses a share of a run that cannot be split soundly. Stopping by width
// cannot: each worker would stop on the trials it saw, so the union would be neither
// one run's trials nor a count the confidence sequence covers (it holds for one
// sequence stopped on its own data, not for N interleaved ones stopped apart).
func (e *Env) checkShard() error {
	if err := e.Shard.Check(); err != nil {
		return err
	}
	if !e.Shard.Whole() && e.UntilWidth > 0 {
		return fmt.Errorf("worker %s: stopping by width cannot be split over workers (each would stop on its own share's "+
			"data); run the campaign with a fixed --trials", e.Shard)
	}
	return nil
}
