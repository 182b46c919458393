package adrtest

// GoodWorkload is a workload file every field of which is valid: the tests change one
// field of it at a time.
const GoodWorkload = `
title: t
protects: a row
purpose: correctness
lock_rate_per_second: 10
hold: 5ms
ttl: 1s
keys: {count: 1, distribution: uniform}
violation_budget_per_year: 0.1
latency_budget: {percentile: p99, max: 5ms}
faults:
  failover: {per_year: 1, source: team's guess}
  planned_failover: {per_year: 0, source: team's guess}
  client_pause: {per_year: 1, longer_than: 1s, source: team's guess}
  node_restart_empty: {per_year: 0, source: team's guess}
  clock_jump: {per_year: 1, above: 100ms, source: team's guess}
  host_crash: {per_year: 0, source: team's guess}
`
