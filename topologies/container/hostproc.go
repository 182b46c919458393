package container

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// hostProc is a container's init as the host sees it: its pid and the time the kernel
// started it. A pid alone names whichever process holds it now: once a server dies on its
// own and the host reuses its pid (pid_max is 32,768 here), a SIGKILL or an nsenter on
// that pid would reach another program.
type hostProc struct {
	pid   int
	start uint64 // starttime in /proc/<pid>/stat: clock ticks after boot
}

// procOf identifies pid now, while it is the container's init.
func procOf(pid int) (hostProc, error) {
	state, start, err := readStat(pid)
	if err != nil {
		return hostProc{}, err
	}
	if state == "Z" || state == "X" {
		return hostProc{}, fmt.Errorf("pid %d has exited", pid)
	}
	return hostProc{pid: pid, start: start}, nil
}

// running says the process identified still runs: the same pid, started at the same
// time, and not a zombie.
func (p hostProc) running() bool {
	if p.pid <= 0 {
		return false
	}
	state, start, err := readStat(p.pid)
	return err == nil && start == p.start && state != "Z" && state != "X"
}

// readStat reads a process's state and start time from /proc/<pid>/stat.
func readStat(pid int) (state string, start uint64, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, err
	}
	return parseStat(string(b))
}

// parseStat takes the state (field 3) and starttime (field 22) of a stat line; the
// command name (field 2) is in parentheses and may hold spaces and parentheses itself.
func parseStat(line string) (state string, start uint64, err error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return "", 0, fmt.Errorf("stat %q: no command name", line)
	}
	f := strings.Fields(line[i+1:])
	const startField = 22 - 3 // fields counted from the state's
	if len(f) <= startField {
		return "", 0, fmt.Errorf("stat %q: %d fields after the name, want %d", line, len(f), startField+1)
	}
	start, err = strconv.ParseUint(f[startField], 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("stat %q: starttime: %w", line, err)
	}
	return f[0], start, nil
}
