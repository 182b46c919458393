package backend

import (
	"testing"
	"time"
)

func TestLeaseRoundsUpThenBounds(t *testing.T) {
	etcd := Lease{Step: time.Second, Min: 2 * time.Second}
	zk := Lease{Step: time.Millisecond, Min: 400 * time.Millisecond, Max: time.Minute}
	for _, c := range []struct {
		rule      Lease
		ask, want time.Duration
	}{
		{etcd, 300 * time.Millisecond, 2 * time.Second},
		{etcd, 2500 * time.Millisecond, 3 * time.Second},
		{etcd, 30 * time.Second, 30 * time.Second},
		{zk, 100 * time.Millisecond, 400 * time.Millisecond},
		{zk, 1500*time.Millisecond + time.Microsecond, 1501 * time.Millisecond},
		{zk, 2 * time.Minute, time.Minute},
		{Lease{}, 7 * time.Millisecond, 7 * time.Millisecond},
	} {
		if got := c.rule.Granted(c.ask); got != c.want {
			t.Errorf("%+v.Granted(%v) = %v, want %v", c.rule, c.ask, got, c.want)
		}
		if asked := c.rule.GrantsAsAsked(c.ask); asked != (c.ask == c.want) {
			t.Errorf("%+v.GrantsAsAsked(%v) = %v", c.rule, c.ask, asked)
		}
	}
	if got := NewCatalog().LeaseOf("no-such-strategy"); got != (Lease{}) {
		t.Errorf("LeaseOf an unknown strategy = %+v, want the zero rule", got)
	}
}
