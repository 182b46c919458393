package heldlease

import (
	"testing"
	"time"
)

// A held lease lapses once its deadline passes, unless taken first; the lapse removes it.
func TestLapseRemovesAnExpiredLease(t *testing.T) {
	var tb Table[int]
	lapsed := make(chan *Lease[int], 1)
	h, ok := tb.Hold("t1", "k", time.Now().Add(10*time.Millisecond), 7, func(h *Lease[int]) {
		if tb.Expire(h, nil) {
			lapsed <- h
		}
	})
	if !ok {
		t.Fatal("hold on an open table refused")
	}
	if got := <-lapsed; got != h || got.Value != 7 {
		t.Fatalf("lapsed %+v, want %+v", got, h)
	}
	if tb.Get("t1", "k") != nil || tb.Take("t1", "k") != nil {
		t.Fatal("a lapsed lease is still held")
	}
}

// Renew moves the deadline: an Expire before it keeps the lease; Take then finds it
// only under its own key, and once.
func TestRenewKeepsAndTakeRemoves(t *testing.T) {
	var tb Table[string]
	h, _ := tb.Hold("t1", "k", time.Now().Add(-time.Second), "conn", func(*Lease[string]) {})
	if !tb.Renew(h, time.Now().Add(time.Hour)) {
		t.Fatal("renew of a held lease failed")
	}
	gone := false
	if tb.Expire(h, func() { gone = true }) || gone {
		t.Fatal("a renewed lease expired")
	}
	if tb.Take("t1", "other") != nil {
		t.Fatal("take under another key found the lease")
	}
	if tb.Take("t1", "k") != h || tb.Take("t1", "k") != nil {
		t.Fatal("take did not remove the lease exactly once")
	}
	if tb.Renew(h, time.Now().Add(time.Hour)) {
		t.Fatal("renew of a taken lease succeeded")
	}
}

// Expire of a lease past its deadline runs gone before the lease is seen missing.
func TestExpireRecordsWhy(t *testing.T) {
	var tb Table[int]
	h, _ := tb.Hold("t1", "k", time.Now().Add(time.Hour), 1, func(*Lease[int]) {})
	tb.Renew(h, time.Now().Add(-time.Millisecond))
	gone := false
	if !tb.Expire(h, func() { gone = true }) || !gone {
		t.Fatalf("expire of a lease past its deadline: gone = %v", gone)
	}
}

// Close hands back every held lease and refuses later ones.
func TestCloseDrainsAndRefuses(t *testing.T) {
	var tb Table[int]
	tb.Hold("t1", "a", time.Now().Add(time.Hour), 1, func(*Lease[int]) {})
	tb.Hold("t2", "b", time.Now().Add(time.Hour), 2, func(*Lease[int]) {})
	if got := tb.Close(); len(got) != 2 {
		t.Fatalf("close returned %d leases, want 2", len(got))
	}
	if _, ok := tb.Hold("t3", "c", time.Now().Add(time.Hour), 3, func(*Lease[int]) {}); ok {
		t.Fatal("hold after close accepted")
	}
	if tb.Get("t1", "a") != nil {
		t.Fatal("a lease is still held after close")
	}
}
