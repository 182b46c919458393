package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A change's checks name the resource: the account out of range, the hook's error.
func TestChecksNameTheResource(t *testing.T) {
	if err := CheckAccount("res", 3, 2); err == nil || !strings.Contains(err.Error(), "res: account 3: out of range 1..2") {
		t.Errorf("account 3 of 2: %v", err)
	}
	if err := CheckAccount("res", 2, 2); err != nil {
		t.Errorf("account 2 of 2: %v", err)
	}
	if err := Between(context.Background(), "res", nil); err != nil {
		t.Errorf("no hook: %v", err)
	}
	stop := errors.New("stop")
	err := Between(context.Background(), "res", func(context.Context) error { return stop })
	if !errors.Is(err, stop) || !strings.HasPrefix(err.Error(), "res: between: ") {
		t.Errorf("hook's error: %v", err)
	}
}

// Lost counts against the invariant: 3 applied of 10 each, the balance shows 2.
func TestLostCountsAgainstTheVersion(t *testing.T) {
	if amount, updates := Lost(980, 970, 3, 2); amount != 10 || updates != 1 {
		t.Errorf("Lost = %d, %d; want 10, 1", amount, updates)
	}
}
