package lab

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Params are a scenario's --param name=value pairs, as typed by the user.
type Params map[string]string

// ParamError is bad user input in one parameter; the CLI exits 2 on it.
type ParamError struct {
	Name, Value, Want string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("param %s=%q: want %s", e.Name, e.Value, e.Want)
}

// Param declares one scenario parameter once: its name, its help, its default as the
// user would type it, and how to read a value. The scenario reads the typed value
// from Values; the default is never written a second time.
type Param struct {
	Name, Default, Help string
	Parse               func(string) (any, string) // the value, or what was wanted
}

// Values are a scenario's parameters, parsed and checked before anything starts.
type Values map[string]any

func get[T any](v Values, name string) T {
	x, ok := v[name].(T)
	if !ok {
		panic(fmt.Sprintf("safety: param %s read as %T but declared as %T", name, *new(T), v[name]))
	}
	return x
}

func (v Values) Duration(name string) time.Duration    { return get[time.Duration](v, name) }
func (v Values) Durations(name string) []time.Duration { return get[[]time.Duration](v, name) }
func (v Values) Int(name string) int                   { return get[int](v, name) }
func (v Values) Ints(name string) []int                { return get[[]int](v, name) }
func (v Values) Float(name string) float64             { return get[float64](v, name) }
func (v Values) Floats(name string) []float64          { return get[[]float64](v, name) }
func (v Values) String(name string) string             { return get[string](v, name) }
func (v Values) Strings(name string) []string          { return get[[]string](v, name) }
func (v Values) Bool(name string) bool                 { return get[bool](v, name) }

// Parse reads raw against decls: unknown names and bad values are *ParamError.
func Parse(scenario string, decls []Param, raw Params) (Values, error) {
	known := map[string]Param{}
	var names []string
	for _, d := range decls {
		known[d.Name] = d
		names = append(names, d.Name)
	}
	unknown := make([]string, 0)
	for name := range raw {
		if _, ok := known[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		want := "no params"
		if len(names) > 0 {
			want = "one of " + strings.Join(names, ", ")
		}
		return nil,
			&ParamError{Name: unknown[0], Value: raw[unknown[0]], Want: "a param of scenario " + scenario + ": " + want}
	}
	vals := Values{}
	for _, d := range decls {
		text, given := raw[d.Name]
		if !given {
			text = d.Default
		}
		v, want := d.Parse(text)
		if want != "" {
			if !given {
				panic(fmt.Sprintf("safety: %s's default %s=%q is not %s", scenario, d.Name, text, want))
			}
			return nil, &ParamError{Name: d.Name, Value: text, Want: want}
		}
		vals[d.Name] = v
	}
	return vals, nil
}

// DurationParam is one duration of at least least.
func DurationParam(name string, def, least time.Duration, help string) Param {
	want := fmt.Sprintf("a duration >= %v such as %v", least, def)
	return Param{Name: name, Default: def.String(), Help: help, Parse: func(s string) (any, string) {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d < least {
			return nil, want
		}
		return d, ""
	}}
}

// DurationsParam is a comma-separated list of durations >= 0.
func DurationsParam(name string, def []time.Duration, help string) Param {
	return listParam(name, def, time.Duration.String, help,
		"a comma-separated list of durations >= 0 such as 0ms,10ms,50ms",
		func(s string) (time.Duration, bool) {
			d, err := time.ParseDuration(s)
			return d, err == nil && d >= 0
		})
}

// listParam is a comma-separated list whose items read is parses, or reads as want.
func listParam[T any](name string, def []T, show func(T) string, help, want string, read func(string) (T, bool)) Param {
	texts := make([]string, len(def))
	for i, x := range def {
		texts[i] = show(x)
	}
	return Param{Name: name, Default: strings.Join(texts, ","), Help: help, Parse: func(s string) (any, string) {
		var out []T
		for _, part := range strings.Split(s, ",") {
			x, ok := read(strings.TrimSpace(part))
			if !ok {
				return nil, want
			}
			out = append(out, x)
		}
		return out, ""
	}}
}

// IntParam is one integer within [least, most].
func IntParam(name string, def, least, most int, help string) Param {
	return Param{Name: name, Default: strconv.Itoa(def), Help: help, Parse: func(s string) (any, string) {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < least || n > most {
			return nil, fmt.Sprintf("an integer from %d to %d", least, most)
		}
		return n, ""
	}}
}

// IntsParam is a comma-separated list of integers within [least, most].
func IntsParam(name string, def []int, least, most int, help string) Param {
	return listParam(name, def, strconv.Itoa, help,
		fmt.Sprintf("a comma-separated list of integers from %d to %d", least, most),
		func(s string) (int, bool) {
			n, err := strconv.Atoi(s)
			return n, err == nil && n >= least && n <= most
		})
}

// FloatParam is one number within [least, most].
func FloatParam(name string, def, least, most float64, help string) Param {
	return Param{Name: name, Default: strconv.FormatFloat(def, 'g', -1, 64), Help: help,
		Parse: func(s string) (any, string) {
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || f < least || f > most {
				return nil, fmt.Sprintf("a number from %g to %g", least, most)
			}
			return f, ""
		}}
}

// FloatsParam is a comma-separated list of numbers within [least, most].
func FloatsParam(name string, def []float64, least, most float64, help string) Param {
	show := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	return listParam(name, def, show, help, fmt.Sprintf("a comma-separated list of numbers from %g to %g", least, most),
		func(s string) (float64, bool) {
			f, err := strconv.ParseFloat(s, 64)
			return f, err == nil && f >= least && f <= most
		})
}

// ChoiceParam is one of allowed.
func ChoiceParam(name, def string, allowed []string, help string) Param {
	return Param{Name: name, Default: def, Help: help, Parse: func(s string) (any, string) {
		s = strings.TrimSpace(s)
		for _, a := range allowed {
			if s == a {
				return s, ""
			}
		}
		return nil, "one of " + strings.Join(allowed, ", ")
	}}
}

// ChoicesParam is a comma-separated list of items among allowed.
func ChoicesParam(name string, def, allowed []string, help string) Param {
	same := func(s string) string { return s }
	return listParam(name, def, same, help, "a comma-separated list of "+strings.Join(allowed, ", "),
		func(s string) (string, bool) { return s, slices.Contains(allowed, s) })
}

// SwitchParam is on or off.
func SwitchParam(name string, def bool, help string) Param {
	text := "off"
	if def {
		text = "on"
	}
	return Param{Name: name, Default: text, Help: help, Parse: func(s string) (any, string) {
		switch strings.TrimSpace(s) {
		case "on":
			return true, ""
		case "off":
			return false, ""
		}
		return nil, "on or off"
	}}
}

// BoundaryFactorsParam is "boundary-factors": the fault sizes a scenario's boundary
// mode runs, as factors of its model's boundary (just below and just above it by
// default); 1 itself, where timing noise decides, is refused.
func BoundaryFactorsParam(help string) Param {
	p := FloatsParam("boundary-factors", []float64{0.8, 1.2}, 0.1, 10, help)
	parse := p.Parse
	p.Parse = func(s string) (any, string) {
		v, want := parse(s)
		if want != "" {
			return v, want
		}
		for _, f := range v.([]float64) {
			if f > 0.95 && f < 1.05 {
				return nil, "a comma-separated list of numbers from 0.1 to 10, none within 0.05 of 1 (the boundary itself)"
			}
		}
		return v, ""
	}
	return p
}
