package adr

import (
	"fmt"
	"strings"
	"time"

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
	// probability is not carried to the workload (Measured.NotSized).
	Unsized      bool
	Contradicted string
}

// redlockJumpModel names the Redlock clock-jump model (not sized).
const redlockJumpModel = "clock jump on a Redlock node"

// SizeModelFor is the model of fault kind k for option o, or nil where none carries
// the lab's probability to the workload (a failover, a Redlock node restarting empty):
// such a probability is not sized, and counts as missing evidence (notsized.go).
func SizeModelFor(w *Workload, k FaultKind, o *Option) *SizeModel {
	if k == ClientPause {
		return pauseModel(w) // every strategy's lease outlasted alike
	}
	switch mechanismOf(k, o) {
	case backend.LoneMemberLoss:
		return &SizeModel{Name: "a lone member losing its disk", Share: 1,
			Assumes: "the one member holds every lock and the fence's counter: losing its disk loses them whatever the sizes",
			Why:     "every counted restart-empty is of the only member",
			Checked: "etcd-leader-kill's lone-member disk loss checks it"}
	case backend.MasterClockJump:
		return jumpModel(w)
	case backend.QuorumNodeClockJump:
		return &SizeModel{Name: redlockJumpModel, Share: 1, Bound: true, Unsized: true,
			Assumes: "a jump frees one node's key; two holders need the holder's key on exactly a quorum, which the workload cannot say",
			Why:     "not sized: every counted jump is taken to break a hold (upper end)",
			Checked: "redlock-kleppmann checks the mechanism at the lab's sizes only"}
	}
	return nil
}

// pauseModel: a holder paused t into its hold, for L, finds its lease gone when
// L > TTL - t; with t uniform over the hold h, the share of pauses of length L that
// break it is clamp((L - (TTL - h)) / h, 0, 1). The counted pauses run from
// longer_than to at_most; without at_most the largest is unknown.
func pauseModel(w *Workload) *SizeModel {
	r := w.Faults.ClientPause
	least, _ := PositiveDuration(r.LongerThan)
	m := &SizeModel{Name: "pause against the lease left",
		Assumes: fmt.Sprintf("the holder pauses at a uniform moment of its %v hold, with no watchdog; it breaks when the pause outlasts the lease left, TTL %v minus the time held", w.HoldD, w.TTLD),
		Checked: "pause-past-ttl checks the mechanism with pauses of 3 x its TTL; its boundary at the workload's TTL and hold is not in the given results (`lockbench adr --plan` lists the run)"}
	brokenFrom := w.TTLD - w.HoldD // the shortest pause that can outlast the lease
	switch {
	case least >= w.TTLD:
		m.Share, m.Why = 1, fmt.Sprintf("every counted pause (longer than %v) outlasts the whole TTL %v", least, w.TTLD)
	case r.AtMost != "":
		most, _ := PositiveDuration(r.AtMost)
		m.Share, m.Bound = pauseShare(most, w.TTLD, w.HoldD), true
		m.Why = fmt.Sprintf("a pause breaks a hold only past %v (TTL - hold); the longest counted, %v, breaks %s of holds: the share of all counted pauses is at most that", brokenFrom, most, percent(m.Share))
		if m.Share == 0 {
			m.Bound, m.Why = false, fmt.Sprintf("a pause breaks a hold only past %v (TTL - hold); the counted pauses last at most %v", brokenFrom, most)
		}
	default:
		m.Share, m.Bound = 1, true
		m.Why = fmt.Sprintf("pauses longer than %v are counted, with no largest size (at_most): a pause breaks a hold only past %v, so every counted one is taken to break it (upper end)", least, brokenFrom)
	}
	return m
}

// pauseShare is the share of holds a pause of length l breaks.
func pauseShare(l, ttl, hold time.Duration) float64 {
	return min(1, max(0, float64(l-(ttl-hold))/float64(hold)))
}

// jumpModel: a forward jump J on a single master, at any moment of the hold, moves
// the key's expiry J earlier; the next client gets in before the holder is done
// exactly when J > TTL - hold, whenever in the hold the jump comes.
func jumpModel(w *Workload) *SizeModel {
	r := w.Faults.ClockJump
	least, _ := PositiveDuration(r.Above)
	threshold := clocks.SingleJumpThreshold(w.TTLD, w.HoldD)
	m := &SizeModel{Name: "forward jump against TTL - hold",
		Assumes: fmt.Sprintf("a forward jump J on the master expires the key J early; it breaks a %v hold under a %v TTL exactly when J > TTL - hold", w.HoldD, w.TTLD),
		Checked: "single-clock-skew checks the mechanism with a jump past its own TTL; the threshold at the workload's TTL and hold is not in the given results (`lockbench adr --plan` lists the run)"}
	switch {
	case least >= threshold:
		m.Share, m.Why = 1, fmt.Sprintf("every counted jump (above %v) exceeds TTL - hold = %v", least, threshold)
	case r.AtMost != "":
		most, _ := PositiveDuration(r.AtMost)
		if most <= threshold {
			m.Share, m.Why = 0, fmt.Sprintf("the counted jumps are at most %v, below TTL - hold = %v: none breaks a hold", most, threshold)
		} else {
			m.Share, m.Bound = 1, true
			m.Why = fmt.Sprintf("some counted jumps (up to %v) exceed TTL - hold = %v; with no distribution of sizes, every one is taken to (upper end)", most, threshold)
		}
	default:
		m.Share, m.Bound = 1, true
		m.Why = fmt.Sprintf("jumps above %v are counted, with no largest size (at_most): one breaks a hold only past TTL - hold = %v, so every counted one is taken to (upper end)", least, threshold)
	}
	return m
}

// Line is the model in one line for the ADR.
func (m *SizeModel) Line() string {
	share := percent(m.Share)
	if m.Bound {
		share = "at most " + share
	}
	line := strings.Join([]string{m.Name + ": " + m.Assumes, "share of counted faults that break a hold: " + share + " (" + m.Why + ")", m.Checked}, "; ")
	if m.Contradicted != "" {
		line += "; so the lab's probability is not sized by it: the fault counts as missing evidence"
	}
	return line
}
