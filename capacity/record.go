package capacity

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/lockbench/lockbench/resultsdir"
)

// RecordFile is the search's own record inside a results folder, beside results.json:
// what each probe's verdict was and what the processes' CPU was.
const RecordFile = "capacity.json"

// Record is every search of one `lockbench capacity` run.
type Record struct {
	SLO        string              `json:"slo"`
	Metric     string              `json:"metric"`
	Percentile string              `json:"percentile"`
	Budget     resultsdir.Duration `json:"budget"`
	Precision  float64             `json:"precision"`
	MinSamples int64               `json:"min_samples"`
	Searches   []SearchRecord      `json:"searches"`
}

// SearchRecord is one strategy searched under one condition.
type SearchRecord struct {
	Strategy       string              `json:"strategy"`
	Clients        int                 `json:"clients"`
	Keys           int                 `json:"keys"`
	Hold           resultsdir.Duration `json:"hold"`
	TTL            resultsdir.Duration `json:"ttl"`
	Arrival        string              `json:"arrival"`
	Servers        int                 `json:"servers"` // server processes the strategy runs on
	Kept           float64             `json:"kept"`    // highest rate two probes kept
	Broke          float64             `json:"broke"`   // lowest rate that broke the budget
	Precision      float64             `json:"precision"`
	Converged      bool                `json:"converged"`
	GeneratorBound bool                `json:"generator_bound"`
	BrokeWhy       string              `json:"broke_why,omitempty"`
	ClientCores    float64             `json:"client_cores"`
	MachineCores   float64             `json:"machine_cores"`
	// TopCPU is each process's highest CPU (cores busy) over the probes at Kept and Broke.
	TopCPU    map[string]float64  `json:"top_cpu"`
	Saturated string              `json:"saturated"`
	Elapsed   resultsdir.Duration `json:"elapsed"`
	Probes    []ProbeRecord       `json:"probes"`
}

// ProbeRecord is one probe and its verdict.
type ProbeRecord struct {
	Cell       string              `json:"cell"`
	Repeat     int                 `json:"repeat"`
	Offered    float64             `json:"offered"`
	Achieved   float64             `json:"achieved"`
	Latency    resultsdir.Duration `json:"latency"`
	Samples    int64               `json:"samples"`
	Errors     int64               `json:"errors,omitempty"`
	Dropped    int64               `json:"dropped,omitempty"`
	Kept       bool                `json:"kept"`
	Why        string              `json:"why,omitempty"`
	ClientCPU  float64             `json:"client_cpu"`
	ServerCPU  map[string]float64  `json:"server_cpu,omitempty"`
	MachineCPU float64             `json:"machine_cpu"`
}

// NewSearchRecord records a search's result.
func NewSearchRecord(strategy string, res Result, servers int) SearchRecord {
	s := SearchRecord{
		Strategy: strategy, Servers: servers, Kept: res.Kept, Broke: res.Broke, Precision: res.Precision(),
		Converged: res.Converged, GeneratorBound: res.GeneratorBound, BrokeWhy: res.BrokeWhy, TopCPU: map[string]float64{},
	}
	for _, st := range res.Steps {
		p := st.Probe
		s.Probes = append(s.Probes, ProbeRecord{
			Cell: p.Cell, Repeat: p.Repeat, Offered: p.Offered, Achieved: p.Achieved, Latency: resultsdir.Duration(p.Latency),
			Samples: p.Samples, Errors: p.Errors, Dropped: p.Dropped, Kept: st.Verdict.Kept, Why: st.Verdict.Why,
			ClientCPU: p.ClientCPU, ServerCPU: p.ServerCPU, MachineCPU: p.MachineCPU,
		})
		s.ClientCores, s.MachineCores = max(s.ClientCores, p.ClientCores), max(s.MachineCores, p.MachineCores)
	}
	for _, st := range res.Top() {
		s.TopCPU["lockbench"] = max(s.TopCPU["lockbench"], st.Probe.ClientCPU)
		if st.Probe.MachineCores > 0 {
			s.TopCPU[MachineName] = max(s.TopCPU[MachineName], st.Probe.MachineCPU)
		}
		for name, v := range st.Probe.ServerCPU {
			s.TopCPU[name] = max(s.TopCPU[name], v)
		}
	}
	s.Saturated = Saturation(s.TopCPU, s.ClientCores, s.MachineCores)
	return s
}

// Saturation names the busiest of our processes at the top probes, as a share of
// what it can use (the generator its cores, a server one core: Redis runs commands on
// one thread), when that share reached SaturatedShare; else, when the machine as a
// whole was that busy, other processes; else nothing.
func Saturation(cpu map[string]float64, clientCores, machineCores float64) string {
	names := make([]string, 0, len(cpu))
	for n := range cpu {
		names = append(names, n)
	}
	sort.Strings(names)
	best, bestShare, ours := "", -1.0, 0.0
	for _, n := range names {
		if n == MachineName {
			continue
		}
		share := cpu[n]
		ours += share
		if n == "lockbench" && clientCores > 0 {
			share /= clientCores
		}
		if share > bestShare {
			best, bestShare = n, share
		}
	}
	machine, measured := cpu[MachineName], machineCores > 0
	switch {
	case best == "":
		return "not measured"
	case bestShare >= SaturatedShare:
		return fmt.Sprintf("%s (%.0f%% CPU)", best, 100*bestShare)
	case measured && machine >= SaturatedShare*machineCores:
		return fmt.Sprintf("the machine, by other processes (%.0f%% busy; ours %.2f of %g cores)", 100*machine/machineCores,
			ours, machineCores)
	}
	return fmt.Sprintf("no process (busiest %s, %.0f%% CPU)", best, 100*bestShare)
}

// WriteRecord writes rec into the results folder dir, atomically.
func WriteRecord(dir string, rec Record) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return resultsdir.WriteFileAtomic(filepath.Join(dir, RecordFile), append(data, '\n'))
}

// ReadRecord reads the folder's search record; ok is false when it has none.
func ReadRecord(dir string) (rec Record, ok bool, err error) {
	data, err := os.ReadFile(filepath.Join(dir, RecordFile))
	if errors.Is(err, os.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, err
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, false, fmt.Errorf("%s: %w", filepath.Join(dir, RecordFile), err)
	}
	return rec, true, nil
}
