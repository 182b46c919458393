package results

import (
	"fmt"
	"regexp"
	"strings"
)

// WriteupClaim is one claim of the write-up this suite answers (its steps, its fencing
// problems, its admitted limits, its rules), and the variants that measure it: those
// where the write-up says it breaks, and the fix or control beside them.
type WriteupClaim struct {
	Step     string // as the write-up numbers it: "step 1", "fencing 3", "limit 1", "rule 1"
	Claim    string
	Scenario string
	// Breaks and Holds name variants, "*" matching any run of characters ('/' too).
	Breaks, Holds []string
	// BreaksBy and HoldsBy are the measures counted; empty: each variant's headline.
	BreaksBy, HoldsBy Measure
}

// WriteupClaims is every claim of the write-up a scenario measures, in its order.
var WriteupClaims = []WriteupClaim{
	{Step: "step 1", Claim: "SETNX then EXPIRE leaves a lock nobody frees if the client dies between them; SET NX PX does not",
		Scenario: "setnx-expire", Breaks: []string{"setnx-then-expire"}, Holds: []string{"set-nx-px"}},
	{Step: "step 2", Claim: "a plain DEL frees the next holder's lock after the TTL ran out; a Lua compare-and-delete does not",
		Scenario: "unsafe-release", Breaks: []string{"plain-del"}, Holds: []string{"lua-release"}},
	{Step: "step 2", Claim: "releasing by GET, compare, then DEL deletes the next holder's lock when the TTL runs out between them; the Lua release does not",
		Scenario: "check-then-delete", Breaks: []string{"get-then-del/*"}, BreaksBy: ForeignDeletes, Holds: []string{"lua/*"}, HoldsBy: CutShort},
	{Step: "step 3", Claim: "a holder paused past its TTL still writes, watchdog or not; a fenced resource refuses its stale write",
		Scenario: "pause-past-ttl", Breaks: []string{"*/no-watchdog", "*/watchdog"}, Holds: []string{"*-fenced"}, HoldsBy: StaleAccepted},
	{Step: "step 3", Claim: "asking whether the lock is still valid does not help: the check says valid, the write lands after expiry; a fence refuses it",
		Scenario: "check-then-write-lock", Breaks: []string{"*/unfenced"}, BreaksBy: StaleAccepted, Holds: []string{"*/fenced"}, HoldsBy: StaleAccepted},
	{Step: "step 3", Claim: "a TTL shorter than the work expires mid-work; one long enough does not (no watchdog)",
		Scenario: "ttl-tradeoff", Breaks: []string{"constant/ttl-25ms", "constant/ttl-50ms", "pareto/ttl-25ms"}, BreaksBy: ExpiredMidWork,
		Holds: []string{"constant/ttl-200ms", "constant/ttl-400ms"}, HoldsBy: ExpiredMidWork},
	{Step: "step 3", Claim: "the price of a long TTL: after its holder crashes the lock stays blocked for the whole TTL (none freed earlier)",
		Scenario: "ttl-tradeoff", Holds: []string{"crash/*"}, HoldsBy: BlockedShort},
	{Step: "step 4", Claim: "a Sentinel failover promotes a replica without the lock: a second client takes it",
		Scenario: "failover-loss", Breaks: []string{"none-delay-*"}, Holds: []string{"wait2-delay-*"}},
	{Step: "step 4", Claim: "WAIT and min-replicas-to-write narrow the window; they do not close it",
		Scenario: "failover-loss", Breaks: []string{"wait1-delay-*", "min-replicas-delay-*"}, Holds: []string{"wait2-delay-*"}},
	{Step: "step 4", Claim: "an old master that comes back takes writes until it is demoted (split brain)",
		Scenario: "failover-loss", Breaks: []string{"zombie"}},
	{Step: "step 4", Claim: "WAIT's objections: the acknowledging replica is not the one promoted, or dies with the master, or restarts empty with it; WAIT 2 waits for both",
		Scenario: "wait-objections", Breaks: []string{"a1-*-wait1", "a2-*-wait1", "b-*-wait1"}, Holds: []string{"a1-*-wait2", "a2-*-wait2"}},
	{Step: "Redlock", Claim: "a node of the majority restarting empty breaks mutual exclusion",
		Scenario: "redlock-restart", Breaks: []string{"*/restart-empty"}, Holds: []string{"*/delayed-restart", "*/appendfsync-always", "*/extend-setnx"}},
	{Step: "step 4", Claim: "a partition makes two masters: the cut-off old master grants the lock while the promoted replica grants it too; min-replicas-max-lag narrows the window, it does not close it",
		Scenario: "sentinel-split-brain", Breaks: []string{"min-replicas-*"}, BreaksBy: Violations},
	{Step: "Redlock", Claim: "a client cut from a minority still locks; two clients reaching different majorities share a node, and its empty restart gives both the lock unless delayed past the TTL",
		Scenario: "redlock-partition", Breaks: []string{"majorities-restart-empty"}, Holds: []string{"minority-cut", "no-cut", "majorities-delayed-restart"}},
	{Step: "Redlock", Claim: "redsync #186: a lock held on exactly a quorum breaks when one of its nodes restarts empty; one held on more nodes survives it",
		Scenario: "redlock-quorum", Breaks: []string{"*/restart-empty-exact-quorum"}, Holds: []string{"*/restart-empty-beyond-quorum"}},
	{Step: "Redlock", Claim: "a clock jump on a node breaks Redlock (Kleppmann)",
		Scenario: "redlock-kleppmann", Breaks: []string{"jump"}, Holds: []string{"no-jump", "jump-within-drift"}},
	{Step: "Redlock", Claim: "a single master's clock jumping forward or running fast frees the lock early",
		Scenario: "single-clock-skew", Breaks: []string{"jump-forward", "rate-1.1"}, Holds: []string{"jump-back", "rate-0.9", "true-clock"}},
	{Step: "fencing 1", Claim: "an INCR fence on the same Redis goes backwards after a failover; etcd's revision does not",
		Scenario: "fence-regression", Breaks: []string{"sentinel/lagging-followers"}, Holds: []string{"etcd-3/*", "sentinel/replicated"}},
	{Step: "fencing 2", Claim: "Redlock has no global counter: the largest per-node INCR of the majority regresses when a node lags or restarts empty",
		Scenario: "redlock-fence", Breaks: []string{"max-fence/counter-lagged", "max-fence/restart-empty"}, BreaksBy: ReissuedTokens, Holds: []string{"max-fence/steady"}, HoldsBy: ReissuedTokens},
	{Step: "fencing 2", Claim: "a random token (what Redlock offers) cannot order writes: a resource comparing tokens for equality accepts the stale one",
		Scenario: "redlock-fence", Breaks: []string{"token/random-token"}, BreaksBy: StaleAccepted},
	{Step: "fencing 3", Claim: "the resource must judge the token: an unfenced write lets the stale holder's change through",
		Scenario: "lost-updates", Breaks: []string{"*/unfenced"}, BreaksBy: StaleApplied, Holds: []string{"pause/*/fenced", "clock-jump/*/fenced", "*/pg-sequence/fenced"}, HoldsBy: StaleApplied},
	{Step: "fencing 4", Claim: "a side effect beyond the guarded resource escapes the fence",
		Scenario: "lost-updates", Breaks: []string{"*/fenced+outbox"}, BreaksBy: EscapedSideEffects},
	{Step: "fencing 5", Claim: "checking the fence in the client, then writing, is the race one layer down",
		Scenario: "lost-updates", Breaks: []string{"*/check-then-write"}, Holds: []string{"pause/*/fenced", "clock-jump/*/fenced", "*/pg-sequence/fenced"}, BreaksBy: LostUpdates, HoldsBy: LostUpdates},
	{Step: "rule 1", Claim: "a structure safe without a lock (version check, unique key, atomic statement) loses no update; only a unique key refuses a redelivery",
		Scenario: "lost-updates", Breaks: []string{"redelivery/atomic", "redelivery/cas-version"}, BreaksBy: Duplicates, Holds: []string{"pause/cas-version", "pause/unique-key", "pause/atomic", "redelivery/unique-key"}, HoldsBy: Duplicates},
	{Step: "limit 1", Claim: "the loss window is the replication lag: measured idle to saturation (percentiles in the replication-lag figures)",
		Scenario: "replication-lag", Holds: []string{"rate-*", "saturate"}, HoldsBy: ProbesUnseen},
	{Step: "rule 3", Claim: "a consensus leader cut off from its followers is no second master: it grants nothing, and the majority grants the lock only after the holder's lease ran out",
		Scenario: "consensus-partition", Holds: []string{"*/isolated-leader"}},
	{Step: "rule 3", Claim: "for correctness use consensus: etcd and ZooKeeper keep the lock through their leader's death (a lone member losing its disk does not)",
		Scenario: "etcd-leader-kill", Breaks: []string{"*-lone-member-disk-loss"}, Holds: []string{"*-leader-kill"}},
}

// ClaimCount is one side of a claim over a set of reports: judged trials where the
// measure was > 0, of those judged, with the variants that matched.
type ClaimCount struct {
	Proportion
	Variants int
	// Anytime says the interval is the confidence sequence: a variant's trials stopped on its data.
	Anytime bool
}

// Count adds up the variants of the claim's scenario that match patterns, by measure
// (or each variant's headline). No match: Variants 0.
func (c WriteupClaim) Count(reports []*Report, patterns []string, by Measure) ClaimCount {
	var out ClaimCount
	k, n, stopped := 0, 0, false
	for _, rep := range reports {
		if rep == nil || rep.Scenario != c.Scenario {
			continue
		}
		for _, v := range rep.Variants {
			if !matchAny(patterns, v.Name) {
				continue
			}
			m := by
			if m == "" {
				m = v.Measure
			}
			out.Variants++
			k += v.Tally.Broke[m]
			n += v.Tally.Judged
			stopped = stopped || v.Stopping != ""
		}
	}
	out.Proportion = ProportionOf(k, n)
	if stopped { // a count the data chose: only the confidence sequence holds
		out.Proportion, out.Anytime = SequenceOf(k, n), true
	}
	return out
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(p), `\*`, ".*") + "$"
		if regexp.MustCompile(re).MatchString(name) {
			return true
		}
	}
	return false
}

// ClaimsTable is the write-up's claims, one row each, with what the reports measured;
// a claim whose scenario the reports lack says so. "" when the reports hold none.
func ClaimsTable(reports []*Report) string {
	var b strings.Builder
	rows := 0
	for _, c := range WriteupClaims {
		breaks, holds := c.Count(reports, c.Breaks, c.BreaksBy), c.Count(reports, c.Holds, c.HoldsBy)
		if breaks.Variants == 0 && holds.Variants == 0 {
			continue
		}
		if rows == 0 {
			b.WriteString("## The write-up's claims, measured\n\n")
			b.WriteString("One row per claim: the variants where the write-up says the lock breaks, and the fix or control beside them; each is judged trials where the measure was > 0, of those judged, with the 95% interval.\n\n")
			b.WriteString("| step | claim | scenario | where it breaks | the fix or control |\n|---|---|---|---|---|\n")
		}
		rows++
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |\n", c.Step, c.Claim, c.Scenario, side(breaks, c.Breaks, c.BreaksBy), side(holds, c.Holds, c.HoldsBy))
	}
	if rows > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// side is one cell of the claims table.
func side(cc ClaimCount, patterns []string, by Measure) string {
	if len(patterns) == 0 {
		return "–"
	}
	if cc.Variants == 0 {
		return "not run"
	}
	what := "headline"
	if by != "" {
		what = string(by)
	}
	interval := cc.Proportion.String()
	if cc.Anytime {
		interval += ", confidence sequence"
	}
	return fmt.Sprintf("%s: %s over %d variants (%s)", what, interval, cc.Variants, strings.Join(patterns, ", "))
}
