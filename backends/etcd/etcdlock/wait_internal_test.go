package etcdlock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

func TestTTLSecondsRoundsUp(t *testing.T) {
	for ttl, want := range map[time.Duration]int64{
		time.Nanosecond: 1, time.Second: 1, time.Second + time.Millisecond: 2, 2500 * time.Millisecond: 3, time.Minute: 60,
	} {
		if got := ttlSeconds(ttl); got != want {
			t.Errorf("ttlSeconds(%v) = %d, want %d", ttl, got, want)
		}
	}
}

func TestWaitErrorNamesCtxFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	grpcErr := errors.New("rpc error: code = Canceled desc = context canceled") // as gRPC words it
	if err := waitError(ctx, grpcErr, time.Now()); !errors.Is(err, context.Canceled) {
		t.Errorf("a cut-off wait's error %v is not context.Canceled", err)
	}
	if err := waitError(ctx, context.Canceled, time.Now()); strings.Count(err.Error(), "canceled") != 1 {
		t.Errorf("ctx's error said twice: %v", err)
	}
}

func TestWaitErrorKeepsSessionExpiryAFault(t *testing.T) {
	err := waitError(context.Background(), concurrency.ErrSessionExpired, time.Now().Add(-time.Second))
	if !errors.Is(err, concurrency.ErrSessionExpired) || !strings.Contains(err.Error(), "waited 1s") {
		t.Errorf("session expiry: %v", err)
	}
}
