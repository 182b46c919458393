package contention

import "fmt"

// SpecError is a spec that does not parse; the CLI turns it into a usage error (exit 2).
type SpecError struct {
	What string // "keys" or "hold"
	Spec string // as written
	Msg  string // what is wrong and what is wanted
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.What, e.Spec, e.Msg)
}

func keysError(spec, format string, args ...any) error {
	return &SpecError{What: "keys", Spec: spec, Msg: fmt.Sprintf(format, args...)}
}

func holdError(spec, format string, args ...any) error {
	return &SpecError{What: "hold", Spec: spec, Msg: fmt.Sprintf(format, args...)}
}
