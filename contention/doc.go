// Package contention is the contention a team's workload puts on its locks, as
// distributions a load engine samples and a model reads: which key a request locks
// (uniform, or Zipf with any exponent over N keys) and how long it holds it (constant,
// exponential or lognormal). Each is parsed from a short spec ("zipf:0.8",
// "exp:20ms"), sampled from a seeded source so a run repeats, and knows its moments:
// each key's probability and the hold's mean and second moment, which the queueing
// floor (package floor) needs. It imports nothing beyond the standard library.
package contention
