package etcdtopo_test

import (
	"context"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
)

// BenchmarkGateOverhead prices the gate every client request crosses (the price of
// making Pause possible): sequential Puts to one unsafe-no-fsync member, straight to
// its listener and through its client gate.
func BenchmarkGateOverhead(b *testing.B) {
	topo, err := etcdtopo.Embedded{}.Start(context.Background(), backend.Spec{Kind: etcd.Kind, UnsafeNoFsync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer topo.Close()
	paths := map[string]string{
		"direct": etcdtopo.DirectClientAddr(topo.(*etcdtopo.Cluster), 0),
		"gate":   topo.Nodes()[0].Addr(),
	}
	for _, path := range []string{"direct", "gate"} {
		b.Run("path="+path, func(b *testing.B) {
			cli, err := clientv3.New(clientv3.Config{Endpoints: []string{paths[path]}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
			if err != nil {
				b.Fatal(err)
			}
			defer cli.Close()
			ctx := context.Background()
			if _, err := cli.Put(ctx, "warm", "up"); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := cli.Put(ctx, "k", "v"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
