package redistopo_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/topologies"
)

// assertListensOnLoopbackOnly checks the sockets the kernel says pid listens on, not
// the address the node reports: every one is on a loopback address, one on its port.
func assertListensOnLoopbackOnly(t *testing.T, n topologies.Node, pid int) {
	t.Helper()
	_, port, err := net.SplitHostPort(n.Addr())
	if err != nil {
		t.Fatalf("%s: address %q: %v", n.Name(), n.Addr(), err)
	}
	listening, err := listeningSockets(pid)
	if err != nil {
		t.Fatalf("%s: %v", n.Name(), err)
	}
	onPort := false
	for _, a := range listening {
		if !a.IP.IsLoopback() {
			t.Errorf("%s (pid %d) listens on %v, not loopback", n.Name(), pid, a)
		}
		onPort = onPort || strconv.Itoa(a.Port) == port
	}
	if !onPort {
		t.Errorf("%s (pid %d) listens on %v, none of them its port %s", n.Name(), pid, listening, port)
	}
}

// listeningSockets lists the TCP sockets in LISTEN state that pid holds open, from
// its fd table and its network namespace's /proc/net/tcp and tcp6.
func listeningSockets(pid int) ([]*net.TCPAddr, error) {
	fds, err := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	if err != nil || len(fds) == 0 {
		return nil, fmt.Errorf("pid %d: no file descriptors readable (%v)", pid, err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(fd)
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	var out []*net.TCPAddr
	for _, table := range []string{"tcp", "tcp6"} {
		addrs, err := listenersIn(fmt.Sprintf("/proc/%d/net/%s", pid, table), inodes)
		if err != nil {
			return nil, err
		}
		out = append(out, addrs...)
	}
	return out, nil
}

// listenersIn reads one /proc/net/tcp table: local address in field 1, state in 3
// (0A is LISTEN), inode in 9.
func listenersIn(path string, inodes map[string]bool) ([]*net.TCPAddr, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*net.TCPAddr
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
			continue
		}
		a, err := procAddr(fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, a)
	}
	return out, sc.Err()
}

// procAddr decodes "0100007F:1F90": the address as 32-bit words in host (little-endian) order, the port in hex.
func procAddr(s string) (*net.TCPAddr, error) {
	ipHex, portHex, ok := strings.Cut(s, ":")
	raw, err := hex.DecodeString(ipHex)
	if !ok || err != nil || (len(raw) != 4 && len(raw) != 16) {
		return nil, fmt.Errorf("local address %q", s)
	}
	port, err := strconv.ParseUint(portHex, 16, 16)
	if err != nil {
		return nil, fmt.Errorf("local port %q", s)
	}
	ip := make(net.IP, len(raw))
	for w := 0; w < len(raw); w += 4 {
		for i := 0; i < 4; i++ {
			ip[w+i] = raw[w+3-i]
		}
	}
	return &net.TCPAddr{IP: ip, Port: int(port)}, nil
}

func TestProcAddrDecodesBothFamilies(t *testing.T) {
	for in, want := range map[string]string{
		"0100007F:1F90":                         "127.0.0.1:8080",
		"00000000:0050":                         "0.0.0.0:80",
		"00000000000000000000000001000000:0016": "[::1]:22",
	} {
		a, err := procAddr(in)
		if err != nil || a.String() != want {
			t.Errorf("procAddr(%q) = %v, %v; want %s", in, a, err, want)
		}
	}
}

// The check must see a bind to every interface for what it is: listen on one here.
func TestListeningSocketsSeeAWildcardBind(t *testing.T) {
	l, err := net.Listen("tcp4", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	listening, err := listeningSockets(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range listening {
		if a.Port == port {
			if a.IP.IsLoopback() {
				t.Fatalf("a 0.0.0.0 listener read as %v", a)
			}
			return
		}
	}
	t.Fatalf("listener on port %d not among %v", port, listening)
}
