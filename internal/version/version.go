// Package version reads the version of a program or module this machine runs, for
// preflight's inventory and the stores' requirements.
package version

import (
	"context"
	"debug/buildinfo"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"time"
)

// Of runs bin with args (split on spaces) and reads the version from its output with
// parse; "" when it does not answer within 5 s.
func Of(bin, args string, parse func(string) string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, bin, strings.Fields(args)...).CombinedOutput()
	return parse(string(out))
}

// Match returns a parser that reads re's first group, "" when re does not match.
func Match(re *regexp.Regexp) func(string) string {
	return func(out string) string {
		if m := re.FindStringSubmatch(out); m != nil {
			return m[1]
		}
		return ""
	}
}

// FirstLine is the output's first line, trimmed.
func FirstLine(out string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(line)
}

// Module is the version of a module linked into this program, "" when it is not.
func Module(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return versionIn(info, path)
}

// versionIn is the version of module among info's dependencies (its replacement's, if
// replaced), "" when it is not one.
func versionIn(info *debug.BuildInfo, module string) string {
	for _, d := range info.Deps {
		if d.Path == module {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return ""
}

// BuiltIn finds a module compiled into this program: this program's path and the
// module's version, or an error when it is not linked in.
func BuiltIn(module string) (path, v string, err error) {
	exe, err := os.Executable()
	if err != nil {
		exe = filepath.Base(os.Args[0])
	}
	if v = Module(module); v == "" {
		return "", "", errors.New(module + " is not linked into this program")
	}
	return exe, v, nil
}

// LinkedInto is the version of module compiled into the program at exe, or an error
// when it is not linked in (or exe is no Go program).
func LinkedInto(exe, module string) (string, error) {
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		return "", err
	}
	if v := versionIn(info, module); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("%s is not linked into %s", module, exe)
}
