// Package capacity searches the highest open-loop rate that keeps a latency budget:
// it grows the offered rate geometrically until the budget breaks, then bisects until
// the answer is known within a precision. It drives a Prober, so the search is tested
// on synthetic latency models and run on real servers alike; it also fits the
// Universal Scalability Law to throughput against clients and reads process CPU from
// /proc to say what saturated. It starts no servers itself.
package capacity
