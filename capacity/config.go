package capacity

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockbench/lockbench/backend"
)

// Config is a capacity run as a file gives it; `lockbench capacity` flags override
// each field. Durations and the precision are text, checked by the command.
type Config struct {
	Strategies  []string `yaml:"strategies,omitempty"`
	SLO         string   `yaml:"slo,omitempty"`       // p99=5ms, attempt:p99.9=1ms
	Precision   string   `yaml:"precision,omitempty"` // 5% or 0.05
	Clients     []int    `yaml:"clients,omitempty"`
	Keys        []string `yaml:"keys,omitempty"` // a number, or per-client
	Hold        string   `yaml:"hold,omitempty"`
	TTL         string   `yaml:"ttl,omitempty"`
	Arrival     string   `yaml:"arrival,omitempty"`
	Start       float64  `yaml:"start,omitempty"` // first rate tried
	Max         float64  `yaml:"max,omitempty"`   // highest rate tried
	Warmup      string   `yaml:"warmup,omitempty"`
	MinDuration string   `yaml:"min_duration,omitempty"`
	Seed        uint64   `yaml:"seed,omitempty"`
}

// DefaultConfig searches the strategies their stores put in the capacity preset (the
// four Redis ones of one master or Sentinel or Redlock, and a Redis Cluster's two)
// under p99 ≤ 5 ms to 5%, 64 clients on a key each, Poisson arrivals: the open-loop
// condition of `make bench`. capacity links no store: the names come from stores (the
// command passes those it links), and a campaign asks the strategy registry whether
// each can run (campaign.Check).
func DefaultConfig(stores *backend.Catalog) Config {
	return Config{
		Strategies: stores.InPreset(backend.CapacitySearch),
		SLO:        "p99=5ms", Precision: "5%",
		Clients: []int{64}, Keys: []string{"per-client"},
		Hold: "0s", TTL: "10s", Arrival: "poisson",
		Start: 1000, Max: 1e6, Warmup: "1s", MinDuration: "300ms", Seed: 1,
	}
}

// ParseConfig reads a config file strictly: an unknown field or a wrong type is an
// error naming it.
func ParseConfig(data []byte) (Config, error) {
	var cfg Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return cfg, nil
}

// Over lays file over base: every field the file sets replaces base's.
func Over(base, file Config) Config {
	out := base
	if file.Strategies != nil {
		out.Strategies = file.Strategies
	}
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&out.SLO, file.SLO}, {&out.Precision, file.Precision}, {&out.Hold, file.Hold}, {&out.TTL, file.TTL},
		{&out.Arrival, file.Arrival}, {&out.Warmup, file.Warmup}, {&out.MinDuration, file.MinDuration},
	} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	if file.Clients != nil {
		out.Clients = file.Clients
	}
	if file.Keys != nil {
		out.Keys = file.Keys
	}
	if file.Start != 0 {
		out.Start = file.Start
	}
	if file.Max != 0 {
		out.Max = file.Max
	}
	if file.Seed != 0 {
		out.Seed = file.Seed
	}
	return out
}

// ParsePrecision reads "5%" or "0.05" as 0.05; it must lie strictly between 0 and 100%.
func ParsePrecision(s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if v, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = v, 0.01
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("precision %q: want a share like 5%% or 0.05", s)
	}
	v *= scale
	if !(v > 0 && v < 1) {
		return 0, fmt.Errorf("precision %q: must be > 0%% and < 100%%", s)
	}
	return v, nil
}

// ParseDuration reads a duration field ("0" allowed), naming it when it is not one.
func ParseDuration(field, s string) (time.Duration, error) {
	if strings.TrimSpace(s) == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s %q: want a duration >= 0 like 200ms", field, s)
	}
	return d, nil
}
