package samerun

import (
	"testing"
	"time"
)

type axis struct {
	Clients []int         `yaml:"clients,omitempty"`
	Hold    time.Duration `yaml:"hold"`
}

type config struct {
	Seed   uint64            `yaml:"seed"`
	Sweeps []axis            `yaml:"sweeps"`
	Params map[string]string `json:"params"`
	Name   string
	hidden int
}

func TestFirstNamesTheFirstDifference(t *testing.T) {
	base := func() config {
		return config{Seed: 1, Sweeps: []axis{{Clients: []int{1, 8}, Hold: time.Millisecond}}, Params: map[string]string{"ttl": "1s"}, Name: "a"}
	}
	cases := []struct {
		change func(*config)
		want   string
	}{
		{func(c *config) { c.Seed = 2 }, "seed is 2 here, 1 there"},
		{func(c *config) { c.Sweeps[0].Clients = []int{1, 4} }, "sweeps[0].clients is [1 4] here, [1 8] there"},
		{func(c *config) { c.Sweeps[0].Clients = []int{1} }, "sweeps[0].clients is [1] here, [1 8] there"},
		{func(c *config) { c.Sweeps[0].Hold = time.Second }, "sweeps[0].hold is 1s here, 1ms there"},
		{func(c *config) { c.Sweeps = append(c.Sweeps, axis{}) }, "sweeps is 2 entries here, 1 entry there"},
		{func(c *config) { c.Params["ttl"] = "2s" }, `params[ttl] is "2s" here, "1s" there`},
		{func(c *config) { c.Params["extra"] = "x" }, `params[extra] is "x" here, absent there`},
		{func(c *config) { c.Name = "b" }, `name is "b" here, "a" there`},
		// The first difference in field order wins.
		{func(c *config) { c.Name, c.Seed = "b", 3 }, "seed is 3 here, 1 there"},
	}
	for _, c := range cases {
		here := base()
		c.change(&here)
		d, ok := First(here, base())
		if !ok || d.String() != c.want {
			t.Errorf("got %q (differs %v), want %q", d, ok, c.want)
		}
	}
	if d, ok := First(base(), base()); ok {
		t.Errorf("equal configs differ: %s", d)
	}
}

func TestFirstReadsEmptyAsNone(t *testing.T) {
	empty := config{Sweeps: []axis{{Clients: []int{}}}, Params: map[string]string{}}
	none := config{Sweeps: []axis{{}}}
	if d, ok := First(empty, none); ok {
		t.Errorf("empty and nil differ: %s", d)
	}
	if d, ok := First(config{hidden: 1}, config{hidden: 2}); ok {
		t.Errorf("an unexported field was compared: %s", d)
	}
}
