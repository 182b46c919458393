package adr

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
)

// SizeModel carries a fault from the lab's sizes to the workload's. The lab measures
// P(violation | a fault large enough to outlast the lease) at its own TTL and fault
// sizes; the model gives the share of the workload's faults that are that large, at
// its TTL and hold. Their product is what the ADR counts.
type SizeModel struct {
	Name    string
	Assumes string // the model's assumption, in one line
	// Share is the share of the workload's counted faults that break a hold; Bound
	// says it is only an upper end (the workload gives no largest size).
	Share float64
	Bound bool
	Why   string // the numbers behind Share
	// Checked says what the lab checks of the model, and what it does not yet.
	Checked string
	// Unsized: the model is no model of sizes, only a bound; Contradicted says how the
	// lab's boundary runs at the workload's TTL broke its rule. Either way the lab's
	// probability is not carried to the workload (Measured.Uncounted).
	Unsized      bool
	Contradicted string
}

// redlockJumpModel names the Redlock clock-jump model (not sized above TTL - hold).
const redlockJumpModel = "clock jump on a Redlock node"

// SizeModelFor is the model of fault kind k for option o, or nil where none carries
// the lab's probability to the workload (a failover, a Redlock node restarting empty):
// such a probability is not sized, and counts as missing evidence (notsized.go).
func SizeModelFor(w *workload.Workload, k backend.Fault, o *Option) *SizeModel {
	switch k {
	case backend.ClientPauseFault:
		return pauseModel(w) // every strategy's lease outlasted alike
	case backend.RedeliveryFault:
		return redeliveryModel
	}
	switch mechanismOf(k, o) {
	case backend.LoneMemberLoss:
		return &SizeModel{Name: "a lone member losing its disk", Share: 1,
			Assumes: "the one member holds every lock and the fence's counter: losing its disk loses them whatever the sizes",
			Why:     "every counted restart-empty is of the only member",
			Checked: "etcd-leader-kill's lone-member disk loss checks it"}
	case backend.UnsyncedLoss:
		return unsyncedModel(w)
	case backend.MasterClockJump:
		return jumpModel(w)
	case backend.QuorumNodeClockJump:
		return redlockJumpSizes(w)
	}
	return nil
}

// redeliveryModel: a redelivery is the same change sent after the first was applied,
// so no TTL, hold or pause of the workload enters: the lab's scripted one is the
// workload's. Each redelivery is one change, whether or not a lock is held.
var redeliveryModel = &SizeModel{Name: "a redelivered change", Share: 1,
	Assumes: "the same change is sent again after the first was applied: no TTL, hold or pause enters, and each " +
		"redelivery is one change whatever locks are held",
	Why:     "every counted redelivery finds its change applied",
	Checked: "lost-updates' redelivery variants script it (a claim: only a unique key refuses it)"}

// writeBack is how long Linux keeps a write in memory before it writes it back on its
// own (vm.dirty_expire_centisecs, 30 s by default): the only sync a server that never
// fsyncs gets.
const writeBack = 30 * time.Second

const (
	unsyncedModelName = "a lone server's unsynced writes"
	unsyncedVariant   = "single/appendfsync-no" // host-crash's master that never fsyncs
)

// unsyncedModel: a server that never fsyncs (no AOF, or appendfsync no) loses in a
// host crash every lock granted within the kernel's write-back delay before it. A lock
// held at the crash was granted less than a hold before, so with holds within that
// delay every held lock is lost, whatever the sizes; a longer hold may have reached the
// disk, so the share is then an upper end.
func unsyncedModel(w *workload.Workload) *SizeModel {
	m := &SizeModel{Name: unsyncedModelName, Share: 1,
		Assumes: fmt.Sprintf("the server never fsyncs: its host crash loses every lock granted within the kernel's "+
			"%v write-back before it, so every lock held at the crash (granted less than a hold before)", writeBack),
		Why: fmt.Sprintf("the %v hold is within the %v write-back: every held lock is lost", w.HoldD, writeBack),
		Checked: "host-crash's " + unsyncedVariant + " checks it at the lab's sizes (a crash right after the grant); " +
			"it is not in the given results"}
	if w.HoldD > writeBack {
		m.Bound = true
		m.Why = fmt.Sprintf("the %v hold is longer than the %v write-back: a lock granted earlier may have reached the "+
			"disk; every held lock is counted lost (upper end)", w.HoldD, writeBack)
	}
	return m
}

// redlockJumpSizes: a forward jump J on one Redlock node expires its key there J early,
// which frees it within a hold only when J > TTL - hold (the single master's
// threshold: the holder is done before a smaller jump's early expiry); then two holders
// also need the key on exactly a quorum including that node, which is not sized. So
// jumps that are all below the threshold count none; any above it leave the lab's
// count unsized.
func redlockJumpSizes(w *workload.Workload) *SizeModel {
	m := &SizeModel{Name: redlockJumpModel, Share: 1, Bound: true, Unsized: true,
		Assumes: "a jump on one node expires its key there J early, which frees it within a hold only when J > TTL - hold; " +
			"two holders then need the holder's key on exactly a quorum including that node, which is not sized",
		Why:     "not sized: every counted jump is taken to break a hold (upper end)",
		Checked: "redlock-kleppmann checks the mechanism at the lab's sizes only"}
	if j := jumpModel(w); j.Share == 0 {
		m.Share, m.Bound, m.Unsized, m.Why = 0, false, false, j.Why
	}
	return m
}

// pauseModel: a holder paused t into its hold, for L, finds its lease gone when
// L > TTL - s, s the time since its lease was last set: the grant (s = t), or with a
// watchdog extending every E, its last extension (s = t mod E; the paused watchdog
// extends no more). With t uniform over the hold h, pauseShare gives the share of
// pauses of length L that break it. The counted pauses run from longer_than to
// at_most; without at_most the largest is unknown.
func pauseModel(w *workload.Workload) *SizeModel {
	r := w.Faults.ClientPause
	least, _ := workload.PositiveDuration(r.LongerThan)
	since := "the time held"
	watchdog := "with no watchdog"
	if w.WatchdogD > 0 {
		since = fmt.Sprintf("the time since the watchdog's last extension (every %v; it pauses with the holder)", w.WatchdogD)
		watchdog = fmt.Sprintf("with a watchdog extending every %v", w.WatchdogD)
	}
	m := &SizeModel{Name: "pause against the lease left",
		Assumes: fmt.Sprintf("the holder pauses at a uniform moment of its %v hold, %s; it breaks when the pause outlasts "+
			"the lease left, TTL %v minus %s", w.HoldD, watchdog, w.TTLD, since),
		Checked: "pause-past-ttl checks the mechanism with pauses of 3 x its TTL; its boundary at the workload's TTL and " +
			"hold, or at two lab TTLs with the hold scaled, is not in the given results (`lockbench adr --plan` lists the run)"}
	brokenFrom := w.TTLD - leaseSetAtMost(w.HoldD, w.WatchdogD) // the shortest pause that can outlast the lease
	switch {
	case least >= w.TTLD:
		m.Share, m.Why = 1, fmt.Sprintf("every counted pause (longer than %v) outlasts the whole TTL %v", least, w.TTLD)
	case r.AtMost != "":
		most, _ := workload.PositiveDuration(r.AtMost)
		m.Share, m.Bound = pauseShare(most, w.TTLD, w.HoldD, w.WatchdogD), true
		m.Why = fmt.Sprintf("a pause breaks a hold only past %v (TTL - %s); the longest counted, %v, breaks %s of holds: "+
			"the share of all counted pauses is at most that", brokenFrom, leaseSetWords(w.WatchdogD), most, percent(m.Share))
		if m.Share == 0 {
			m.Bound, m.Why = false, fmt.Sprintf(
				"a pause breaks a hold only past %v (TTL - %s); the counted pauses last at most %v", brokenFrom,
				leaseSetWords(w.WatchdogD), most)
		}
	default:
		m.Share, m.Bound = 1, true
		m.Why = fmt.Sprintf("pauses longer than %v are counted, with no largest size (at_most): a pause breaks a hold only "+
			"past %v (TTL - %s), so every counted one is taken to break it (upper end)", least, brokenFrom,
			leaseSetWords(w.WatchdogD))
	}
	return m
}

// pauseShare is the share of holds a pause of length l breaks: the share of the hold's
// moments whose time since the lease was last set exceeds ttl - l. Without a watchdog
// (every = 0) that time is the time held; with one, it runs from 0 to every again and
// again: whole periods, then what is left of the hold.
func pauseShare(l, ttl, hold, every time.Duration) float64 {
	x := float64(ttl - l) // the time since the lease was set beyond which the pause breaks it
	over := func(span float64) float64 { return min(span, max(0, span-x)) }
	if every <= 0 || every >= hold {
		return over(float64(hold)) / float64(hold)
	}
	periods := float64(hold / every)
	rest := float64(hold % every)
	return (periods*over(float64(every)) + over(rest)) / float64(hold)
}

// leaseSetAtMost is the longest a hold runs since its lease was last set.
func leaseSetAtMost(hold, every time.Duration) time.Duration {
	if every > 0 && every < hold {
		return every
	}
	return hold
}

// leaseSetWords names leaseSetAtMost in a reason.
func leaseSetWords(every time.Duration) string {
	if every > 0 {
		return "the longest a hold runs since its lease was set"
	}
	return "hold"
}

// jumpModel: a forward jump J on a single master, at any moment of the hold, moves
// the key's expiry J earlier; the next client gets in before the holder is done
// exactly when J > TTL - hold, whenever in the hold the jump comes.
func jumpModel(w *workload.Workload) *SizeModel {
	r := w.Faults.ClockJump
	least, _ := workload.PositiveDuration(r.Above)
	threshold := clocks.SingleJumpThreshold(w.TTLD, w.HoldD)
	m := &SizeModel{Name: "forward jump against TTL - hold",
		Assumes: fmt.Sprintf("a forward jump J on the master expires the key J early; it breaks a %v hold under a %v TTL "+
			"exactly when J > TTL - hold", w.HoldD, w.TTLD),
		Checked: "single-clock-skew checks the mechanism with a jump past its own TTL; the threshold at the workload's TTL " +
			"and hold is not in the given results (`lockbench adr --plan` lists the run)"}
	switch {
	case least >= threshold:
		m.Share, m.Why = 1, fmt.Sprintf("every counted jump (above %v) exceeds TTL - hold = %v", least, threshold)
	case r.AtMost != "":
		most, _ := workload.PositiveDuration(r.AtMost)
		if most <= threshold {
			m.Share, m.Why = 0,
				fmt.Sprintf("the counted jumps are at most %v, below TTL - hold = %v: none breaks a hold", most, threshold)
		} else {
			m.Share, m.Bound = 1, true
			m.Why = fmt.Sprintf("some counted jumps (up to %v) exceed TTL - hold = %v; with no distribution of sizes, every "+
				"one is taken to (upper end)", most, threshold)
		}
	default:
		m.Share, m.Bound = 1, true
		m.Why = fmt.Sprintf("jumps above %v are counted, with no largest size (at_most): one breaks a hold only past TTL - "+
			"hold = %v, so every counted one is taken to (upper end)", least, threshold)
	}
	return m
}

// Line is the model in one line for the ADR.
func (m *SizeModel) Line() string {
	share := percent(m.Share)
	if m.Bound {
		share = "at most " + share
	}
	line := strings.Join([]string{m.Name + ": " + m.Assumes, "share of counted faults that break a hold: " + share +
		" (" + m.Why + ")", m.Checked}, "; ")
	if m.Contradicted != "" {
		line += "; so the lab's probability is not sized by it: the fault counts as missing evidence"
	}
	return line
}
