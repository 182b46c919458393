package preflight

import (
	"archive/zip"
	"bufio"
	"context"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strings"
	"time"
)

// versionOf runs bin with args (split on spaces) and reads the version from its
// output with parse; "" when it does not answer within 5 s.
func versionOf(bin, args string, parse func(string) string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, bin, strings.Fields(args)...).CombinedOutput()
	return parse(string(out))
}

var (
	redisV    = regexp.MustCompile(`\bv=(\S+)`)
	postgresV = regexp.MustCompile(`\(PostgreSQL\) (\S+)`)
	javaV     = regexp.MustCompile(`version "([^"]+)"`)
	faketimeV = regexp.MustCompile(`Version (\S+)`)
)

func redisVersion(out string) string    { return submatch(redisV, out) }
func postgresVersion(out string) string { return submatch(postgresV, out) }
func javaVersion(out string) string     { return submatch(javaV, out) }
func faketimeVersion(out string) string { return submatch(faketimeV, out) }

func firstLine(out string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(line)
}

func submatch(re *regexp.Regexp, out string) string {
	if m := re.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// jarVersion reads version= from the Maven pom.properties inside ZooKeeper's jar
// (its manifest carries none in Debian's build).
func jarVersion(jar string) string {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return ""
	}
	defer z.Close()
	f, err := z.Open("META-INF/maven/org.apache.zookeeper/zookeeper/pom.properties")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "version="); ok {
			return v
		}
	}
	return ""
}

// moduleVersion is the version of a module linked into this program, "" when it is not.
func moduleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path == path {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return ""
}
