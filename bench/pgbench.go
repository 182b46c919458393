package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// FindPgbench returns pgbench from the PostgreSQL install the suite starts servers
// from (it ships in the same package as the server).
func FindPgbench() (string, error) {
	install, err := topologies.FindPostgres("")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(install.BinDir, "pgbench")
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf(
			"pgbench not found in %s (Debian/Ubuntu: apt-get install postgresql-contrib or postgresql): %w", install.BinDir, err)
	}
	return bin, nil
}

// CASVersionScript is, for pgbench, what the cas-version strategy sends per update on
// a row per client: read the row, then write it back only if its version is unchanged.
const CASVersionScript = `\set id :client_id + 1
SELECT balance, version FROM account WHERE id = :id \gset
UPDATE account SET balance = :balance - 1, version = :version + 1 WHERE id = :id AND version = :version;
`

// PgbenchResult is what pgbench reported.
type PgbenchResult struct {
	TPS          float64 // transactions per second, connection time excluded
	Transactions int64
}

// RunPgbench runs `pgbench -n -c clients -T seconds -f script` against dsn.
func RunPgbench(ctx context.Context, bin, dsn, script string, clients int, d time.Duration) (PgbenchResult, error) {
	if d < time.Second {
		return PgbenchResult{}, fmt.Errorf("pgbench runs whole seconds: %v is too short", d)
	}
	f, err := os.CreateTemp("", "lockbench-pgbench-*.sql")
	if err != nil {
		return PgbenchResult{}, err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(script); err != nil {
		f.Close()
		return PgbenchResult{}, err
	}
	f.Close()
	cmd := exec.CommandContext(ctx, bin, "-n", "-c", strconv.Itoa(clients),
		"-T", strconv.Itoa(int(d/time.Second)), "-f", f.Name(), dsn)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return PgbenchResult{}, fmt.Errorf("pgbench: %w: %s", err, out)
	}
	return ParsePgbench(string(out))
}

var (
	pgbenchTPS   = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
	pgbenchCount = regexp.MustCompile(`(?m)^number of transactions actually processed: ([0-9]+)`)
	pgbenchFail  = regexp.MustCompile(`(?m)^number of failed transactions: ([0-9]+)`)
)

// ParsePgbench reads pgbench's summary; a run with failed transactions is an error.
func ParsePgbench(out string) (PgbenchResult, error) {
	tps, count := pgbenchTPS.FindStringSubmatch(out), pgbenchCount.FindStringSubmatch(out)
	if tps == nil || count == nil {
		return PgbenchResult{}, fmt.Errorf("pgbench: no tps or transaction count in its output %q", out)
	}
	if m := pgbenchFail.FindStringSubmatch(out); m != nil && m[1] != "0" {
		return PgbenchResult{}, errors.New("pgbench: " + m[1] + " transactions failed")
	}
	var r PgbenchResult
	r.TPS, _ = strconv.ParseFloat(tps[1], 64)
	r.Transactions, _ = strconv.ParseInt(count[1], 10, 64)
	return r, nil
}
