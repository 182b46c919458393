package floor_test

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/contention/floor"
)

// The correctness ADR's workload (docs/adr-workload-correctness.yaml): 200 deductions
// a second over 10000 accounts by zipf:1, each held 20 ms, a p99 budget of 10 ms; the
// hold as the file writes it (constant), and exponential and lognormal at the same mean.
func Example_correctnessWorkload() {
	keys, _ := contention.ParseKeys("zipf:1", 10000)
	for _, spec := range []string{"const:20ms", "exp:20ms", "lognormal:20ms,0.5"} {
		hold, _ := contention.ParseHold(spec)
		f, err := floor.Compute(200, keys, hold, floor.Options{Sim: floor.SimOptions{Seed: 1}})
		if err != nil {
			fmt.Println(err)
			return
		}
		budget := 10 * time.Millisecond
		fmt.Printf("%-18s hottest rho %.3f, P(wait>0) %.4f, mean %v, p99 %v, p99.9 %v, "+
			"P(wait>10ms) %.4f±%.4f, p99 within: %v\n",
			spec, f.Hottest.Rho, f.PWait, f.MeanWait, f.Percentile(0.99), f.Percentile(0.999),
			f.Exceed(budget), f.ExceedSE(budget), f.Meets(0.99, budget))
	}
	// Output:
	// const:20ms         hottest rho 0.409, P(wait>0) 0.0687, mean 1.02ms, p99 24.2ms, p99.9 51.6ms, P(wait>10ms) 0.0428±0.0004, p99 within: false
	// exp:20ms           hottest rho 0.409, P(wait>0) 0.0687, mean 2.03ms, p99 57.1ms, p99.9 130ms, P(wait>10ms) 0.0485±0.0000, p99 within: false
	// lognormal:20ms,0.5 hottest rho 0.409, P(wait>0) 0.0687, mean 1.31ms, p99 34.3ms, p99.9 74.9ms, P(wait>10ms) 0.0434±0.0003, p99 within: false
}

// The efficiency ADR's workload (docs/adr-workload.yaml): one scheduler lock, 10 ticks
// a second held 50 ms each: the key is held half the time.
func Example_efficiencyWorkload() {
	keys, _ := contention.ParseKeys("uniform", 1)
	hold, _ := contention.ParseHold("const:50ms")
	f, _ := floor.Compute(10, keys, hold, floor.Options{Sim: floor.SimOptions{Seed: 1}})
	fmt.Printf("P(wait>0) %.3f, mean %v, p99 %v, p99.9 %v, P(wait>10ms) %.3f\n",
		f.PWait, f.MeanWait, f.Percentile(0.99), f.Percentile(0.999), f.Exceed(10*time.Millisecond))
	// Output:
	// P(wait>0) 0.500, mean 25ms, p99 166ms, p99.9 257ms, P(wait>10ms) 0.447
}

// A key asked for more holding than a second holds is named.
func Example_saturated() {
	keys, _ := contention.ParseKeys("zipf:1", 12)
	hold, _ := contention.ParseHold("exp:20ms")
	f, _ := floor.Compute(200, keys, hold, floor.Options{})
	fmt.Println(f.Saturation)
	fmt.Println("p50", f.Percentile(0.5), "p99", f.Percentile(0.99))
	// Output:
	// saturated: key 0 takes 64.45 locks/s x mean hold 20ms = utilisation 1.29 >= 1, so its queue grows without bound; 1 of 12 keys saturated (32.2% of requests): no lock can serve them
	// p50 10.3ms p99 unbounded
}
