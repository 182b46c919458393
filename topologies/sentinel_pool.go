package topologies

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// SentinelPool lends sentinel deployments to trials that each break one (kill or
// stop its master). A returned deployment is re-formed in the background while the
// next trial runs on another, so a trial pays neither a start (seconds) nor the tail
// of the previous failover (sentinel ends a failover only after its next 1 s INFO of
// the other replicas). A deployment that does not re-form within the bound is closed
// and the next loan starts a fresh one.
type SentinelPool struct {
	start         func(ctx context.Context) (Topology, error)
	size          int
	reformTimeout time.Duration

	ctx    context.Context // ends the background re-forms on Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
	back   chan comeback // one per live deployment at most

	mu       sync.Mutex
	live     map[Topology]bool
	starting int // fresh deployments starting in the background
	closed   bool
}

// comeback is a returned deployment once re-formed, one started in the background,
// or why one was dropped.
type comeback struct {
	topo   Topology
	reform Reformed
	fresh  bool
	err    error
}

// Borrowed is one loan of a deployment.
type Borrowed struct {
	Topology
	// Reformed is what the re-form before this loan did; nil for a fresh deployment.
	Reformed *Reformed
	// FreshAfter is why this fresh deployment was started in place of one the pool
	// had: a re-form that failed, or a background start that did ("" otherwise).
	FreshAfter string
}

// NewSentinelPool keeps up to size deployments made by start (which also tunes them);
// size 0 re-uses nothing: every loan is a fresh deployment, closed on return.
func NewSentinelPool(size int, reformTimeout time.Duration,
	start func(ctx context.Context) (Topology, error)) *SentinelPool {
	ctx, cancel := context.WithCancel(context.Background())
	return &SentinelPool{start: start, size: size, reformTimeout: reformTimeout, ctx: ctx, cancel: cancel,
		back: make(chan comeback, max(size, 1)), live: map[Topology]bool{}}
}

// errPoolClosed is a loan asked of a closed pool.
var errPoolClosed = errors.New("sentinel pool is closed")

// Take lends a healthy deployment: a re-formed one if ready, a fresh one while fewer
// than size live (starting the others at the same time, in the background: a start
// mostly waits for sentinels to hear of each other), else the next one ready. Trials
// running side by side may call it at once: a start counts against size from the
// moment it is decided, so the pool never holds more than size.
func (p *SentinelPool) Take(ctx context.Context) (*Borrowed, error) {
	select {
	case c := <-p.back:
		return p.receive(ctx, c)
	default:
	}
	p.mu.Lock()
	closed, n := p.closed, len(p.live)+p.starting
	startHere := !closed && (n < p.size || p.size == 0)
	if startHere {
		for extra := p.size - n - 1; extra > 0; extra-- {
			p.startInBackground()
		}
		p.starting++ // this loan's own start
	}
	p.mu.Unlock()
	if closed {
		return nil, errPoolClosed
	}
	if startHere {
		return p.fresh(ctx, "")
	}
	select {
	case c := <-p.back:
		return p.receive(ctx, c)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *SentinelPool) receive(ctx context.Context, c comeback) (*Borrowed, error) {
	switch {
	case c.err != nil:
		p.mu.Lock()
		p.starting++ // the replacement's start
		p.mu.Unlock()
		return p.fresh(ctx, c.err.Error())
	case c.fresh:
		return &Borrowed{Topology: c.topo}, nil
	}
	r := c.reform
	return &Borrowed{Topology: c.topo, Reformed: &r}, nil
}

// startInBackground starts one more deployment for a later loan; p.mu is held.
func (p *SentinelPool) startInBackground() {
	p.starting++
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		topo, err := p.start(p.ctx)
		p.mu.Lock()
		p.starting--
		if err == nil && p.closed {
			topo.Close()
			err = errPoolClosed
		}
		if err == nil {
			p.live[topo] = true
		}
		p.mu.Unlock()
		if err != nil {
			p.send(comeback{err: fmt.Errorf("start in the background: %w", err)})
			return
		}
		p.send(comeback{topo: topo, fresh: true})
	}()
}

// fresh starts a deployment in the foreground; the caller counted it in p.starting.
func (p *SentinelPool) fresh(ctx context.Context, after string) (*Borrowed, error) {
	topo, err := p.start(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starting--
	if err != nil {
		return nil, err
	}
	if p.closed {
		topo.Close()
		return nil, errPoolClosed
	}
	p.live[topo] = true
	return &Borrowed{Topology: topo, FreshAfter: after}, nil
}

// Return gives a loan back; the pool re-forms it in the background (or closes it,
// with size 0).
func (p *SentinelPool) Return(b *Borrowed) {
	if b == nil {
		return
	}
	if p.size == 0 {
		p.drop(b.Topology)
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		ctx, cancel := context.WithTimeout(p.ctx, p.reformTimeout)
		r, err := Reform(ctx, b.Topology)
		cancel()
		if err != nil {
			p.drop(b.Topology)
		}
		p.send(comeback{topo: b.Topology, reform: r, err: err})
	}()
}

// send hands c to the next Take, or gives up when the pool closes: comebacks nobody
// takes (a re-form that failed at once, as for a provider that cannot re-form, while
// Take started a fresh one) must not block Close.
func (p *SentinelPool) send(c comeback) {
	select {
	case p.back <- c:
	case <-p.ctx.Done():
	}
}

func (p *SentinelPool) drop(topo Topology) {
	p.mu.Lock()
	delete(p.live, topo)
	p.mu.Unlock()
	topo.Close()
}

// Close ends the background re-forms and closes every deployment.
func (p *SentinelPool) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for topo := range p.live {
		errs = append(errs, topo.Close())
	}
	p.live = map[Topology]bool{}
	return errors.Join(errs...)
}
