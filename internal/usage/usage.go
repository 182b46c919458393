// Package usage marks an error as bad input from the user: a wrong flag, value or
// folder named on the command line. The command exits 2 on it, not 1.
package usage

import "fmt"

// Error is bad input; its message names what to change.
type Error struct{ Msg string }

func (e Error) Error() string { return e.Msg }

// Errorf is an Error with a formatted message.
func Errorf(format string, args ...any) error { return Error{fmt.Sprintf(format, args...)} }

// Of makes err's message a usage error.
func Of(err error) error { return Error{err.Error()} }
