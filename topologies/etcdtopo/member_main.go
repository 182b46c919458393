package etcdtopo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// memberEnv, set in a child's environment, names the config file of the one etcd member
// that child runs instead of its program.
const memberEnv = "LOCKBENCH_ETCD_MEMBER"

// childConfig is what the parent writes to a member's dir before starting it.
type childConfig struct {
	Member    memberConfig
	ReadyPath string // written, with the member's raft ID, once it serves
	ParentPid int    // the child exits when it is orphaned
}

// readyFile is what a child reports once it serves.
type readyFile struct {
	ID uint64
}

// Every program that links this package can run a member: the etcd-process provider
// re-executes the running program, so the takeover must come before any main or
// TestMain (package inits run first). Calling RunMemberIfAsked again is harmless.
func init() { RunMemberIfAsked() }

// RunMemberIfAsked runs one etcd member and exits if this process was started as one
// (memberEnv set); otherwise it returns at once.
func RunMemberIfAsked() {
	path := os.Getenv(memberEnv)
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
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var cfg childConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	e, err := embed.StartEtcd(cfg.Member.embed())
	if err != nil {
		return fmt.Errorf("start embedded etcd: %w", err)
	}
	defer e.Close()
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		return err
	}
	if err := writeReady(cfg.ReadyPath, readyFile{ID: uint64(e.Server.MemberID())}); err != nil {
		return err
	}
	orphaned := time.NewTicker(500 * time.Millisecond)
	defer orphaned.Stop()
	for {
		select {
		case <-e.Server.StopNotify():
			return fmt.Errorf("etcd stopped by itself")
		case err := <-e.Err():
			return err
		case <-orphaned.C:
			if os.Getppid() != cfg.ParentPid {
				return fmt.Errorf("parent %d is gone", cfg.ParentPid)
			}
		}
	}
}

// writeReady writes the ready file whole or not at all (the parent polls for it).
func writeReady(path string, r readyFile) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), ".ready.tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readReady(path string) (readyFile, error) {
	var r readyFile
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}
