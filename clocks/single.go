package clocks

import "time"

// SingleJumpThreshold is the clock-jump model for one master: a forward jump J of its
// clock, at any moment of a hold, moves the key's expiry J earlier, so the next client
// gets in before a holder of hold under ttl is done exactly when J > ttl - hold. A
// jump at or below it frees nothing early enough; one above breaks every hold.
func SingleJumpThreshold(ttl, hold time.Duration) time.Duration { return ttl - hold }

// SingleJumpBreaks says whether a forward jump j on one master breaks a hold of hold
// under ttl, by the model.
func SingleJumpBreaks(ttl, hold, j time.Duration) bool { return j > SingleJumpThreshold(ttl, hold) }
