package etcdrun

import (
	"go.etcd.io/etcd/server/v3/embed"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
)

// server is an embedded etcd server as etcdtopo's members drive it.
type server struct{ e *embed.Etcd }

// start starts an embedded server from a member's configuration, for etcdtopo.
func start(mc memberfile.Member) (etcdtopo.Server, error) {
	s, err := serve(mc)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// serve starts an embedded server from a member's configuration.
func serve(mc memberfile.Member) (server, error) {
	e, err := embed.StartEtcd(embedConfig(mc))
	return server{e}, err
}

func (s server) ID() uint64               { return uint64(s.e.Server.MemberID()) }
func (s server) ClientAddr() string       { return s.e.Clients[0].Addr().String() }
func (s server) PeerAddr() string         { return s.e.Peers[0].Addr().String() }
func (s server) Ready() <-chan struct{}   { return s.e.Server.ReadyNotify() }
func (s server) Stopped() <-chan struct{} { return s.e.Server.StopNotify() }
func (s server) Err() <-chan error        { return s.e.Err() }
func (s server) Leader() uint64           { return uint64(s.e.Server.Leader()) }
func (s server) PauseSending()            { s.e.Server.PauseSending() }
func (s server) ResumeSending()           { s.e.Server.ResumeSending() }

// Close stops the server gracefully (a member's own process, at its end).
func (s server) Close() { s.e.Close() }

// Kill sends nothing more (not even a leadership transfer), stops raft and closes.
func (s server) Kill() {
	s.e.Server.PauseSending()
	s.e.Server.HardStop()
	s.e.Close()
}
