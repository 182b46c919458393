package main

import (
	"strconv"
	"strings"
)

// parseWidth reads --until-width: a share ("0.05") or a percentage ("5%"), above 0
// and below 1; "" is 0, no stopping by width.
func parseWidth(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	num, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	w, err := strconv.ParseFloat(num, 64)
	if err == nil && pct {
		w /= 100
	}
	if err != nil || !(w > 0 && w < 1) {
		return 0, usagef("--until-width %q: want a width above 0 and below 1, as a share (0.05) or a percentage (5%%)", s)
	}
	return w, nil
}
