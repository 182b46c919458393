package external

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lockbench/lockbench/redisconn"
)

// access is a's user with its password (from its file or variable) and the TLS config.
// Errors name the file or variable, never the password.
func (d *Deployment) access(a *Auth) (redisconn.Access, error) {
	pw, err := password(a)
	if err != nil {
		return redisconn.Access{}, err
	}
	out := redisconn.Access{Password: pw}
	if a != nil {
		out.Username = a.Username
	}
	out.TLS, err = d.tlsConfig()
	return out, err
}

// password reads a's password from its file or variable; none when a names neither.
func password(a *Auth) (string, error) {
	switch {
	case a == nil:
		return "", nil
	case a.PasswordFile != "":
		data, err := os.ReadFile(a.PasswordFile)
		if err != nil {
			return "", fmt.Errorf("password_file: %w", err)
		}
		pw := strings.TrimRight(string(data), "\r\n")
		if pw == "" {
			return "", fmt.Errorf("password_file %s is empty", a.PasswordFile)
		}
		return pw, nil
	case a.PasswordEnv != "":
		pw := os.Getenv(a.PasswordEnv)
		if pw == "" {
			return "", fmt.Errorf("password_env: variable %s is not set or empty", a.PasswordEnv)
		}
		return pw, nil
	}
	return "", nil
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
// appear in nothing it writes. The read errors are CheckSecrets'.
func (d *Deployment) Secrets() []string {
	var out []string
	for _, a := range d.auths() {
		if pw, err := password(a); err == nil && pw != "" {
			out = append(out, pw)
		}
	}
	return out
}

// CheckSecrets reads every password and TLS file now, so that a missing one is bad
// input before anything starts.
func (d *Deployment) CheckSecrets() error {
	_, err := d.tlsConfig()
	errs := []error{err}
	for _, a := range d.auths() {
		if _, err := password(a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
