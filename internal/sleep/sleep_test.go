package sleep

import (
	"context"
	"testing"
	"time"
)

func TestForSaysWhetherTheWholeWaitPassed(t *testing.T) {
	if !For(context.Background(), time.Millisecond) {
		t.Error("a wait no context ended says it was cut short")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if For(ctx, time.Hour) {
		t.Error("a wait whose context had ended says the hour passed")
	}
}
