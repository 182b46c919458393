// Package clock reproduces what a clock that jumps, drifts or is skewed does to a
// lease: on one Redis (single-clock-skew), under Sentinel (sentinel-clock-skew), and
// to Redlock's quorum (redlock-clock-jump, redlock-clock-rate, redlock-kleppmann),
// each race judged against the clock model's prediction; and what a server clock ahead
// of the client's does to rueidislock, which sets its key's end from the client's clock
// (rueidislock-clock-behind).
package clock
