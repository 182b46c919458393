package safety

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Params are a scenario's --param name=value pairs.
type Params map[string]string

// ParamError is bad user input in one parameter; the CLI exits 2 on it.
type ParamError struct {
	Name, Value, Want string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("param %s=%q: want %s", e.Name, e.Value, e.Want)
}

// CheckNames refuses any name s does not declare.
func (p Params) CheckNames(s Scenario) error {
	known := map[string]bool{}
	var names []string
	for _, d := range s.Params() {
		known[d.Name] = true
		names = append(names, d.Name)
	}
	for name, v := range p {
		if !known[name] {
			want := "no params"
			if len(names) > 0 {
				want = "one of " + strings.Join(names, ", ")
			}
			return &ParamError{Name: name, Value: v, Want: "a param of scenario " + s.Name() + ": " + want}
		}
	}
	return nil
}

// Duration reads a positive (or zero) duration such as 300ms.
func (p Params) Duration(name string, def time.Duration) (time.Duration, error) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, &ParamError{name, v, "a duration >= 0 such as 300ms"}
	}
	return d, nil
}

// Durations reads a comma-separated list of durations >= 0.
func (p Params) Durations(name string, def []time.Duration) ([]time.Duration, error) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	var out []time.Duration
	for _, part := range strings.Split(v, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d < 0 {
			return nil, &ParamError{name, v, "a comma-separated list of durations >= 0 such as 0ms,10ms,50ms"}
		}
		out = append(out, d)
	}
	return out, nil
}

// Strings reads a comma-separated list whose items must be among allowed.
func (p Params) Strings(name string, def, allowed []string) ([]string, error) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	var out []string
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		found := false
		for _, a := range allowed {
			found = found || a == part
		}
		if !found {
			return nil, &ParamError{name, v, "a comma-separated list of " + strings.Join(allowed, ", ")}
		}
		out = append(out, part)
	}
	return out, nil
}

// Int reads an integer within [min, max].
func (p Params) Int(name string, def, min, max int) (int, error) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		return 0, &ParamError{name, v, fmt.Sprintf("an integer from %d to %d", min, max)}
	}
	return n, nil
}
