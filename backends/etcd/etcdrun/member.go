// Package etcdrun links etcd's server into the program that imports it: the program then
// runs one etcd member when the etcd-process provider re-executes it as one, and the
// embedded provider starts its members in it. Only lockbench itself and the tests that
// start members in process import it: the server doubles a test binary's link.
package etcdrun

import (
	"fmt"
	"os"
	"time"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/internal/reexec"
)

// Every program that links this package can run a member: the etcd-process provider
// re-executes the running program, so the takeover must come before any main or
// TestMain (package inits run first). Calling RunMemberIfAsked again is harmless.
func init() {
	etcdtopo.LinkServer(start)
	reexec.Serves(memberfile.Role)
	RunMemberIfAsked()
}

// RunMemberIfAsked runs one etcd member and exits if this process was started as one
// (memberfile.Env set); otherwise it returns at once.
func RunMemberIfAsked() {
	path := os.Getenv(memberfile.Env)
	if path == "" {
		return
	}
	if err := runMember(path); err != nil {
		fmt.Fprintf(os.Stderr, "etcd member: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// runMember starts the member, reports it ready, and serves until etcd stops or the
// parent is gone (Pdeathsig normally kills us first; this covers the rest).
func runMember(path string) error {
	cfg, err := memberfile.Read(path)
	if err != nil {
		return err
	}
	s, err := serve(cfg.Member)
	if err != nil {
		return fmt.Errorf("start embedded etcd: %w", err)
	}
	defer s.Close()
	select {
	case <-s.Ready():
	case err := <-s.Err():
		return err
	}
	if err := memberfile.WriteReady(cfg.ReadyPath, s.ID()); err != nil {
		return err
	}
	orphaned := time.NewTicker(500 * time.Millisecond)
	defer orphaned.Stop()
	for {
		select {
		case <-s.Stopped():
			return fmt.Errorf("etcd stopped by itself")
		case err := <-s.Err():
			return err
		case <-orphaned.C:
			if os.Getppid() != cfg.ParentPid {
				return fmt.Errorf("parent %d is gone", cfg.ParentPid)
			}
		}
	}
}
