package external

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
)

// duoFile gives every key of the duo store: two masters, a sentinel with its own user
// (from a variable) and the masters' user (from a file).
const duoFile = `duo-left:
  masters: [a:1, b:1]
duo-right:
  sentinels: [s:1]
  auth:
    password_env: LOCKBENCH_TEST_PW
duo-auth:
  username: u
  password_file: PWFILE
`

func mustParse(t *testing.T, body string) *Deployment {
	t.Helper()
	d, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseIsStrict(t *testing.T) {
	const left = "duo-left:\n  masters: [a:1]\n"
	for body, want := range map[string]string{
		"":                                   "empty",
		"# nothing but a comment\n":          "no role given",
		"members-test:\n  endpoint: [e:1]\n": "line 2: field endpoint not found",
		left + "duo-auth:\n  password: x\n":  "line 4: field password not found",
		left + "tls:\n  ca: x\n":             "line 4: field ca not found",
		"tls:\n  ca_file: x\n":               "no role given: want at least one of duo-left, duo-right, members-test",
		"duo-auth:\n  username: u\n":         "no role given",
		"duo-left:\n":                        "no role given",
		left + "tls:\n  cert_file: c\n":      "go together",
		left + "duo-auth:\n  password_file: f\n  password_env: E\n":                               "password_file or password_env, not both",
		left + "duo-right:\n  auth:\n    password_file: f\n    password_env: E\n":                 "password_file or password_env, not both",
		"members-test:\n  endpoints: [e:1]\n  auth:\n    password_file: f\n    password_env: E\n": "not both",
		"zookeeper:\n  endpoints: [z:1]\n":                                                        "field zookeeper not found: the file's roles are duo-left, duo-right, members-test, duo-auth and tls",
		"- a:1\n- b:1\n":                                                                          "line 1: want a mapping of the file's roles (duo-left, duo-right, members-test, duo-auth and tls)",
	} {
		if _, err := Parse([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error naming %q", body, err, want)
		}
	}
	d := mustParse(t, duoFile+"members-test:\n  endpoints: [e:1, e:2]\n  auth:\n    username: m\ntls:\n  server_name: x\n")
	if l := RoleOf[*duoLeft](d, "duo-left"); l == nil || len(l.Masters) != 2 {
		t.Errorf("duo-left parsed as %+v", l)
	}
	if r := RoleOf[*duoRight](d, "duo-right"); r == nil || r.Auth.PasswordEnv != "LOCKBENCH_TEST_PW" {
		t.Errorf("duo-right parsed as %+v", r)
	}
	if a := RoleOf[*Auth](d, "duo-auth"); a == nil || a.Username != "u" {
		t.Errorf("duo-auth parsed as %+v", a)
	}
	if m := RoleOf[*MembersRole](d, "members-test"); m == nil || len(m.Endpoints) != 2 || m.Auth.Username != "m" {
		t.Errorf("members-test parsed as %+v", m)
	}
	if d.TLS == nil || d.TLS.ServerName != "x" {
		t.Errorf("tls parsed as %+v", d.TLS)
	}
	if r := RoleOf[*duoRight](mustParse(t, "duo-left:\n  masters: [a:1]\nduo-right:\n"), "duo-right"); r != nil {
		t.Errorf("an empty role parsed as %+v, want it absent", r)
	}
}

func TestRegisteringAKindOrFileKeyTwicePanics(t *testing.T) {
	before := len(sortedStores())
	for name, s := range map[string]Store{
		"a key of another store": MembersStore("members-other", "duo-auth", recordVersions, recordCleanup),
		"a kind twice":           MembersStore(duoOne, "members-new", recordVersions, recordCleanup),
		"tls":                    MembersStore("members-tls", "tls", recordVersions, recordCleanup),
		"no layout":              {Kinds: []backend.Kind{"x"}, Roles: []RoleKey{{Key: "x", New: func() RoleValue { return new(Auth) }}}},
	} {
		if !panics(func() { RegisterStore(s) }) {
			t.Errorf("%s: registered", name)
		}
	}
	if after := len(sortedStores()); after != before {
		t.Errorf("%d stores after the refused registrations, want %d", after, before)
	}
}

func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}

// A members store's kind is served from its role: the members are its endpoints.
func TestMembersStoreIsServedFromItsRole(t *testing.T) {
	if !(Provider{}).Serves(membersStore.Kinds[0]) {
		t.Fatalf("Serves(%s) = false after RegisterStore", membersStore.Kinds[0])
	}
	d := mustParse(t, "members-test:\n  endpoints: [e:1, e:2, e:3]\n")
	spec := backend.Spec{Kind: membersStore.Kinds[0]}
	if err := d.Check("strat-y", spec); err != nil {
		t.Fatal(err)
	}
	topo, err := Provider{Deployment: d, Prefix: KeyPrefix("t1")}.Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := topologies.Addrs(topo.Masters()); len(got) != 3 || topo.Spec().Members != 3 || topo.Spec().Kind != spec.Kind {
		t.Errorf("members %v, spec %+v", got, topo.Spec())
	}
	if r := topo.Masters()[0].Role(); r != topologies.RoleMember {
		t.Errorf("a member's role is %s", r)
	}
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	if got := lastCleanup(t); got.prefix != KeyPrefix("t1") || len(got.servers.Masters) != 3 {
		t.Errorf("cleanup given %+v", got)
	}
}

// Start lays out the servers the store names, reads both users, lets the probe name the
// master, and hands the cleanup what the probe found.
func TestStartLaysOutAStoresServers(t *testing.T) {
	d := mustParse(t, strings.Replace(duoFile, "PWFILE", passwordFile(t, "from-file"), 1))
	t.Setenv("LOCKBENCH_TEST_PW", "from-env")
	topo, err := Provider{Deployment: d, Prefix: KeyPrefix("t2")}.Start(context.Background(), backend.Spec{Kind: duoWith})
	if err != nil {
		t.Fatal(err)
	}
	if got := topologies.Addrs(topo.Masters()); len(got) != 1 || got[0] != "b:1" {
		t.Errorf("masters %v, want the one the probe named", got)
	}
	if got := topologies.Addrs(topo.Sentinels()); len(got) != 1 || got[0] != "s:1" {
		t.Errorf("sentinels %v", got)
	}
	if a := topologies.AccessOf(topo); a.Username != "u" || a.Password != "from-file" {
		t.Errorf("access %+v", a)
	}
	if a := topologies.SentinelAccessOf(topo); a.Password != "from-env" {
		t.Errorf("sentinel access %+v", a)
	}
	if s := topo.Spec(); s.Kind != duoWith || s.Masters != 2 {
		t.Errorf("spec %+v", s)
	}
	recorded := topo.(*topology).Servers()
	if len(recorded) != 2 || recorded[0].Addr != "b:1" || recorded[1].Role != string(topologies.RoleSentinel) {
		t.Errorf("recorded %+v", recorded)
	}
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	if got := lastCleanup(t); got.prefix != KeyPrefix("t2") || topologies.Addrs(got.servers.Masters)[0] != "b:1" {
		t.Errorf("cleanup given %+v", got)
	}
	t.Setenv("LOCKBENCH_TEST_PW", "")
	if _, err := (Provider{Deployment: d, Prefix: KeyPrefix("t3")}).Start(context.Background(), backend.Spec{Kind: duoWith}); err == nil || !strings.Contains(err.Error(), "sentinel auth: password_env") {
		t.Errorf("a sentinel password unset: %v", err)
	}
	one, err := Provider{Deployment: d, Prefix: KeyPrefix("t4")}.Start(context.Background(), backend.Spec{Kind: duoOne})
	if err != nil {
		t.Fatalf("a kind without sentinels needs not their password: %v", err)
	}
	if len(one.Masters()) != 2 || len(one.Sentinels()) != 0 {
		t.Errorf("duo-one: masters %v, sentinels %v", one.Masters(), one.Sentinels())
	}
}

type cleanupCall struct {
	servers Servers
	prefix  string
}

func lastCleanup(t *testing.T) cleanupCall {
	t.Helper()
	cleanedMu.Lock()
	defer cleanedMu.Unlock()
	if len(cleaned) == 0 {
		t.Fatal("no cleanup ran")
	}
	return cleanupCall{cleaned[len(cleaned)-1], cleanedAt[len(cleanedAt)-1]}
}

func passwordFile(t *testing.T, pw string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(path, []byte(pw+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckNamesStrategyAndRole(t *testing.T) {
	d := mustParse(t, "duo-left:\n  masters: [a:1]\n")
	if err := d.Check("duo", backend.Spec{Kind: duoOne}); err != nil {
		t.Errorf("duo-one on a file with duo-left: %v", err)
	}
	for kind, role := range map[backend.Kind]string{duoWith: "duo-right.sentinels", membersStore.Kinds[0]: "members-test.endpoints"} {
		err := d.Check("strat-x", backend.Spec{Kind: kind})
		if err == nil || !strings.Contains(err.Error(), "deployment file: strategy strat-x needs role "+role) {
			t.Errorf("%s: %v, want the strategy and role %s named", kind, err, role)
		}
	}
	if err := d.Check("zookeeper", backend.Spec{Kind: "not-served"}); err == nil ||
		!strings.Contains(err.Error(), "strategy zookeeper runs on not-served, which provider external does not serve: it serves duo-one, duo-with, members-test") {
		t.Errorf("an unserved kind: %v", err)
	}
}

func TestRefusesFaultsOfServersItDoesNotOwn(t *testing.T) {
	if err := Refuses(backend.Spec{Kind: duoOne, Clocks: map[string]clocks.Model{"master-0": {}}}); err == nil || !strings.Contains(err.Error(), "only breaks servers it owns") {
		t.Errorf("clocks: %v", err)
	}
	if err := Refuses(backend.Spec{Kind: "not-served"}); err == nil || !strings.Contains(err.Error(), "serves duo-one, duo-with, members-test") {
		t.Errorf("zookeeper: %v", err)
	}
	if err := Refuses(backend.Spec{Kind: duoOne}); err != nil {
		t.Errorf("duo-one: %v", err)
	}
	n := node{name: "master-0", addr: "a:1"}
	for what, err := range map[string]error{"kill": n.Kill(), "pause": n.Pause(), "resume": n.Resume(), "restart": n.Restart(context.Background(), topologies.RestartEmpty)} {
		if err == nil || !strings.Contains(err.Error(), "does not own") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if !n.Running() {
		t.Error("an external node is assumed running")
	}
}

// Every key's users are read and checked, whichever store registered it.
func TestSecretsComeFromFileOrVariable(t *testing.T) {
	pw := passwordFile(t, "from-file")
	t.Setenv("LOCKBENCH_TEST_PW", "from-env")
	d := mustParse(t, strings.Replace(duoFile, "PWFILE", pw, 1)+"members-test:\n  endpoints: [e:1]\n  auth:\n    password_file: "+pw+"\n")
	a, err := d.access(RoleOf[*Auth](d, "duo-auth"))
	if err != nil || a.Username != "u" || a.Password != "from-file" {
		t.Errorf("file: %+v, %v", a, err)
	}
	if e, err := d.access(RoleOf[*duoRight](d, "duo-right").Auth); err != nil || e.Password != "from-env" {
		t.Errorf("env: %+v, %v", e, err)
	}
	if got := strings.Join(d.Secrets(), ","); got != "from-env,from-file,from-file" {
		t.Errorf("secrets %q, want the sentinels', the masters' and the members'", got)
	}
	RoleOf[*MembersRole](d, "members-test").Auth.PasswordFile = filepath.Join(t.TempDir(), "missing")
	if err := d.CheckSecrets(); err == nil || !strings.Contains(err.Error(), "password_file") {
		t.Errorf("a missing password file: %v", err)
	}
	bare := mustParse(t, "duo-left:\n  masters: [a:1]\ntls:\n  ca_file: "+filepath.Join(t.TempDir(), "missing-ca")+"\n")
	if err := bare.CheckSecrets(); err == nil || strings.Count(err.Error(), "tls ca_file") != 1 {
		t.Errorf("a missing CA file, no user: %v, want it named once", err)
	}
}

func TestRunIDGoesIntoAPatternSafely(t *testing.T) {
	if err := CheckRunID(NewRunID()); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "a*", "a:b", "a?b", "[x]", strings.Repeat("a", 65)} {
		if CheckRunID(bad) == nil {
			t.Errorf("run id %q accepted", bad)
		}
	}
	if NewRunID() == NewRunID() {
		t.Error("two run ids alike")
	}
}
