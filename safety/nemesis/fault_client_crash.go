package nemesis

import (
	"context"
	"errors"
)

// clientCrash kills a client where it stands: it never runs another step. Nothing heals it.
type clientCrash struct{}

func init() { Register(clientCrash{}) }

func (clientCrash) Name() string { return "client-crash" }

func (clientCrash) Inject(_ context.Context, t Target) (Heal, error) {
	if t.Client == nil {
		return nil, errors.New("needs a client")
	}
	t.note("client-crash " + t.Client.String())
	t.Client.Crash()
	return NoHeal, nil
}
