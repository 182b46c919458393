package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// testCA writes a CA and a server certificate for DNS name redis.test into dir.
func testCA(t *testing.T, dir string) (caFile, certFile, keyFile string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "lockbench test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	srvKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srv := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "redis.test"}, DNSNames: []string{"redis.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	srvDER, err := x509.CreateCertificate(rand.Reader, srv, ca, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, kind string, der []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("server.pem", "CERTIFICATE", srvDER), write("server.key", "EC PRIVATE KEY", keyDER)
}

// freePort is a port leased to this test (no other lockbench process takes it) until it ends.
func freePort(t *testing.T) int {
	t.Helper()
	p, err := topologies.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { topologies.ReleasePort(p) })
	return p
}

// TestExternalOverTLS runs a cell over TLS against a redis-server with a TLS port and a
// certificate of our own CA; a wrong server_name fails, naming the certificate's names.
func TestExternalOverTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caFile, certFile, keyFile := testCA(t, dir)
	port := freePort(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single, ExtraConfig: []string{
		fmt.Sprintf("tls-port %d", port), "tls-cert-file " + certFile, "tls-key-file " + keyFile,
		"tls-ca-cert-file " + caFile, "tls-auth-clients no",
	}})
	_ = topo
	deployment := func(serverName string) string {
		path := filepath.Join(dir, serverName+".yaml")
		body := fmt.Sprintf("single:\n  master: \"127.0.0.1:%d\"\ntls:\n  ca_file: %s\n  server_name: %s\n", port, caFile, serverName)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	runOn := func(serverName string) (int, string, string) {
		out := filepath.Join(dir, "out-"+serverName)
		var stderr bytes.Buffer
		code := runOnDeployment([]string{"run", "--deployment", deployment(serverName), "--strategies", "single", "--clients", "1", "--keys", "1",
			"--duration", "1s", "--warmup", "0", "--intervals", "2", "--no-report", "--progress", "plain", "--out", out}, nil, io.Discard, &stderr)
		return code, out, stderr.String()
	}
	code, out, stderr := runOn("redis.test")
	if code != 0 {
		t.Fatalf("over TLS: exit %d: %s", code, stderr)
	}
	r, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 1 || r.Cells[0].Granted == 0 {
		t.Fatalf("over TLS: cells %+v granted nothing", r.Cells)
	}
	code, _, stderr = runOn("wrong.test")
	t.Logf("wrong server_name: %s", stderr)
	if code == 0 || !strings.Contains(stderr, "certificate") || !strings.Contains(stderr, "wrong.test") {
		t.Errorf("wrong server_name: exit %d, stderr %q; want a failure naming the certificate and the name", code, stderr)
	}
}
