package portlease

import (
	"net"
	"strconv"
	"testing"
)

func TestLeasesComeFromTheBandBelowTheEphemeralRange(t *testing.T) {
	first, _ := ephemeralRange()
	lo, hi := band()
	var ports []int
	defer func() {
		for _, p := range ports {
			Release(p)
		}
	}()
	seen := map[int]bool{}
	for i := 0; i < 200; i++ {
		p, err := Take()
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, p)
		if p < lo || p >= hi || p >= first {
			t.Fatalf("leased %d, outside the band %d-%d below the ephemeral range's %d", p, lo, hi-1, first)
		}
		if seen[p] {
			t.Fatalf("port %d leased twice without a release", p)
		}
		seen[p] = true
	}
}

// Another process's lock is another open file description: the same file locked again
// here must be refused while the lease is held, and granted once it is released.
func TestALeasedPortIsRefusedToEveryOtherHolder(t *testing.T) {
	p, err := Take()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := lockDir()
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := lockPort(dir, p); ok {
		f.Close()
		t.Fatalf("port %d locked a second time while leased", p)
	}
	if !Held(p) {
		t.Fatalf("port %d not reported held", p)
	}
	Release(p)
	if Held(p) {
		t.Fatalf("port %d still reported held after Release", p)
	}
	f, ok := lockPort(dir, p)
	if !ok {
		t.Fatalf("port %d refused after its release", p)
	}
	f.Close()
}

func TestABoundPortIsNotBindable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	if bindable(port) {
		t.Fatalf("port %d reported bindable while a listener holds it", port)
	}
	l.Close()
	if !bindable(port) {
		t.Fatalf("port %d reported taken after its listener closed", port)
	}
}

func TestOnTakeSeesEachLeaseAndRestores(t *testing.T) {
	var got []int
	restore := OnTake(func(p int) { got = append(got, p) })
	p, err := Take()
	restore()
	if err != nil {
		t.Fatal(err)
	}
	defer Release(p)
	q, err := Take()
	if err != nil {
		t.Fatal(err)
	}
	defer Release(q)
	if len(got) != 1 || got[0] != p {
		t.Fatalf("hook saw %v, want [%d] (and not %s after restore)", got, p, strconv.Itoa(q))
	}
}
