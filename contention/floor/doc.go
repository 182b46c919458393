// Package floor computes the queueing floor of a workload's locks: the wait for a held
// key that no lock can beat, because a key's mutex serves one holder at a time. The
// model is M/G/1 per key, FIFO, Poisson arrivals: requests arrive at rate lambda, each
// locks key k with probability p_k, so key k is an M/G/1 queue of rate lambda p_k and
// utilisation rho_k = lambda p_k E[S]. Its mean wait is Pollaczek-Khinchine's, it waits
// at all with probability rho_k, and a request's wait is the mixture over keys.
//
// Percentiles and the share of requests over a budget come exactly from M/M/1 when
// holds are exponential, and otherwise from a seeded simulation of every key's FIFO
// queue (Lindley's recursion), which is the general method; the closed forms are its
// test oracles. A key with rho_k >= 1 is saturated: its waits grow without bound and
// the floor says which key it is. The package is pure: no servers, no stores.
package floor
