package external

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lockbench/lockbench/topologies"
)

// access reads a's password (from its file or variable) and builds the TLS config.
// Errors name the file or variable, never the password.
func (d *Deployment) access(a *Auth) (topologies.Access, error) {
	var out topologies.Access
	if a != nil {
		out.Username = a.Username
		switch {
		case a.PasswordFile != "":
			data, err := os.ReadFile(a.PasswordFile)
			if err != nil {
				return out, fmt.Errorf("password_file: %w", err)
			}
			out.Password = strings.TrimRight(string(data), "\r\n")
			if out.Password == "" {
				return out, fmt.Errorf("password_file %s is empty", a.PasswordFile)
			}
		case a.PasswordEnv != "":
			out.Password = os.Getenv(a.PasswordEnv)
			if out.Password == "" {
				return out, fmt.Errorf("password_env: variable %s is not set or empty", a.PasswordEnv)
			}
		}
	}
	cfg, err := d.tlsConfig()
	out.TLS = cfg
	return out, err
}

// tlsConfig is the client TLS of every connection, or nil for plain TCP.
func (d *Deployment) tlsConfig() (*tls.Config, error) {
	if d.TLS == nil {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: d.TLS.ServerName}
	if d.TLS.CAFile != "" {
		pem, err := os.ReadFile(d.TLS.CAFile)
		if err != nil {
			return nil, fmt.Errorf("tls ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls ca_file %s: no PEM certificate in it", d.TLS.CAFile)
		}
		cfg.RootCAs = pool
	}
	if d.TLS.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(d.TLS.CertFile, d.TLS.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("tls cert_file/key_file: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// Secrets are the passwords the deployment reads, so that a caller can check they
// appear in nothing it writes. The read errors of Access are reported there.
func (d *Deployment) Secrets() []string {
	var out []string
	for _, a := range d.auths() {
		if acc, err := d.access(a); err == nil && acc.Password != "" {
			out = append(out, acc.Password)
		}
	}
	return out
}

// CheckSecrets reads every password and TLS file now, so that a missing one is bad
// input before anything starts.
func (d *Deployment) CheckSecrets() error {
	var errs []error
	for _, a := range d.auths() {
		if _, err := d.access(a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
