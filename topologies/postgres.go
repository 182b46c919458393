package topologies

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// The PostgreSQL lookups live here rather than in backends/postgres/pgtopo so that
// topologies/testenv can skip or fail on a missing server without importing a driver.

// ErrNoPostgres says the PostgreSQL server binaries were not found.
var ErrNoPostgres = errors.New("PostgreSQL server (initdb, postgres) not found: install it (Debian/Ubuntu: apt-get " +
	"install postgresql) or set POSTGRES_BIN_DIR to the directory holding initdb and postgres")

// PostgresRunAsUser is the system user the server runs as when this program is root:
// initdb and postgres refuse to run as root. The Debian package creates it.
const PostgresRunAsUser = "postgres"

// PostgresInstall is where the server binaries are and whom they run as.
type PostgresInstall struct {
	BinDir string // holds initdb and postgres
	// RunAs is the credential to run them with; nil runs them as this program's user.
	RunAs *syscall.Credential
}

// Initdb and Postgres are the binaries' paths.
func (p PostgresInstall) Initdb() string   { return filepath.Join(p.BinDir, "initdb") }
func (p PostgresInstall) Postgres() string { return filepath.Join(p.BinDir, "postgres") }

// FindPostgres finds the server binaries: in binDir if given, else $POSTGRES_BIN_DIR if
// set, else initdb on PATH (its real directory: Debian links from elsewhere into
// /usr/lib/postgresql/N/bin), else the newest /usr/lib/postgresql/*/bin. As root it also
// resolves PostgresRunAsUser.
func FindPostgres(binDir string) (PostgresInstall, error) {
	dir := binDir
	if dir == "" {
		var err error
		if dir, err = findPostgresBinDir(); err != nil {
			return PostgresInstall{}, err
		}
	} else if err := hasPostgresBinaries(dir); err != nil {
		return PostgresInstall{}, fmt.Errorf("%s: %v: %w", dir, err, ErrNoPostgres)
	}
	install := PostgresInstall{BinDir: dir}
	if os.Geteuid() != 0 {
		return install, nil
	}
	u, err := user.Lookup(PostgresRunAsUser)
	if err != nil {
		return PostgresInstall{}, fmt.Errorf("running as root, and initdb and postgres refuse to run as root: system user "+
			"%q not found to run them as (Debian/Ubuntu: apt-get install postgresql creates it): %w", PostgresRunAsUser, err)
	}
	uid, errU := strconv.ParseUint(u.Uid, 10, 32)
	gid, errG := strconv.ParseUint(u.Gid, 10, 32)
	if errU != nil || errG != nil {
		return PostgresInstall{},
			fmt.Errorf("system user %q: uid %q, gid %q are not numbers", PostgresRunAsUser, u.Uid, u.Gid)
	}
	install.RunAs = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return install, nil
}

func findPostgresBinDir() (string, error) {
	if dir := os.Getenv("POSTGRES_BIN_DIR"); dir != "" {
		if err := hasPostgresBinaries(dir); err != nil {
			return "", fmt.Errorf("POSTGRES_BIN_DIR=%s: %v: %w", dir, err, ErrNoPostgres)
		}
		return dir, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil && hasPostgresBinaries(filepath.Dir(real)) == nil {
			return filepath.Dir(real), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	// Newest major version first: "15" sorts after "9.6" only as numbers.
	sort.Slice(dirs, func(i, j int) bool { return postgresMajor(dirs[i]) > postgresMajor(dirs[j]) })
	for _, dir := range dirs {
		if hasPostgresBinaries(dir) == nil {
			return dir, nil
		}
	}
	return "", ErrNoPostgres
}

// postgresMajor reads N from /usr/lib/postgresql/N/bin (0 if it is not a number).
func postgresMajor(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

func hasPostgresBinaries(dir string) error {
	var missing []string
	for _, name := range []string{"initdb", "postgres"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no executable %s there", strings.Join(missing, ", "))
	}
	return nil
}
