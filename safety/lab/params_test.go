package lab

import (
	"errors"
	"testing"
	"time"
)

func TestParseParams(t *testing.T) {
	decls := []Param{
		DurationParam("ttl", 300*time.Millisecond, 30*time.Millisecond, "ttl"),
		DurationsParam("delays", []time.Duration{0, 10 * time.Millisecond}, "delays"),
		IntsParam("k", []int{1, 2}, 0, 5, "k"),
		FloatsParam("rates", []float64{1.5}, 0.5, 2, "rates"),
		ChoicesParam("modes", []string{"a"}, []string{"a", "b"}, "modes"),
		SwitchParam("search", false, "search"),
	}
	vals, err := Parse("s", decls, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vals.Duration("ttl") != 300*time.Millisecond || len(vals.Durations("delays")) != 2 || vals.Ints("k")[1] != 2 ||
		vals.Floats("rates")[0] != 1.5 || vals.Strings("modes")[0] != "a" || vals.Bool("search") {
		t.Errorf("defaults read back wrong: %v", vals)
	}
	vals, err = Parse("s", decls, Params{"ttl": "1s", "k": "0,5", "modes": "b,a", "search": "on"})
	if err != nil || vals.Duration("ttl") != time.Second || vals.Ints("k")[1] != 5 || vals.Strings("modes")[0] != "b" || !vals.Bool("search") {
		t.Errorf("given values: %v %v", vals, err)
	}
	for _, bad := range []Params{
		{"ttl": "10ms"}, {"ttl": "soon"}, {"delays": "5ms,-1ms"}, {"k": "6"}, {"rates": "3"},
		{"modes": "a,c"}, {"search": "yes"}, {"meteor": "1"},
	} {
		_, err := Parse("s", decls, bad)
		var pe *ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%v: %v, want a *ParamError", bad, err)
			continue
		}
		for name := range bad {
			if pe.Name != name {
				t.Errorf("%v: the error names %q, want %q", bad, pe.Name, name)
			}
		}
	}
}
