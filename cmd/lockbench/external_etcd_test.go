package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestExternalEtcdLeavesNoKey runs strategy etcd on an etcd posed as someone else's:
// locks were granted, and afterwards the cluster holds no key (every one was under the
// run's prefix, deleted at the end, with one planted there), beyond someone else's, kept.
func TestExternalEtcdLeavesNoKey(t *testing.T) {
	t.Parallel()
	topo := testenv.Start(t, backend.Spec{Kind: etcd.Kind})
	endpoints := topologies.Addrs(topo.Masters())
	admin, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	// A key under the run's prefix (given by --run-id) that only the clean-up deletes.
	for _, k := range []string{"someone-else/key", "lockbench:etcd-test-run:planted"} {
		if _, err := admin.Put(ctx, k, "1"); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "d.yaml")
	if err := os.WriteFile(path, []byte(fmt.Sprintf("etcd:\n  endpoints: [%q]\n", endpoints[0])), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := runOnDeployment([]string{"run", "--deployment", path, "--run-id", "etcd-test-run", "--strategies", "etcd", "--clients", "2", "--keys", "per-client",
		"--duration", "1s", "--warmup", "0", "--intervals", "2", "--no-report", "--progress", "plain", "--out", out}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	r, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 1 || r.Cells[0].Granted == 0 {
		t.Fatalf("cells %+v: no lock was granted, so no key was ever written", r.Cells)
	}
	if r.Environment.RunID != "etcd-test-run" {
		t.Errorf("run id recorded %q, want the --run-id given", r.Environment.RunID)
	}
	if v := r.Environment.External["etcd"]; len(v) != 1 || v[0].Version == "" {
		t.Errorf("etcd servers recorded %+v, want its address and version", v)
	}
	resp, err := admin.Get(ctx, "\x00", clientv3.WithFromKey(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, kv := range resp.Kvs {
		keys = append(keys, string(kv.Key))
	}
	if strings.Join(keys, ",") != "someone-else/key" {
		t.Errorf("keys after the run = %q, want only someone-else/key", keys)
	}
}
