package capacity

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/PID/stat's CPU times: 100 on every Linux
// architecture Go runs on (the kernel scales to it whatever its own HZ).
const clockTicks = 100

// ProcessCPU is the CPU time (user + system) process pid has used so far, from
// /proc/PID/stat.
func ProcessCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(data))
}

// parseStatCPU reads utime and stime (fields 14 and 15) from a stat line; the command
// name in parentheses may hold spaces and parentheses, so fields count from the last ')'.
func parseStatCPU(line string) (time.Duration, error) {
	end := strings.LastIndexByte(line, ')')
	if end < 0 {
		return 0, fmt.Errorf("stat %q: no command name", line)
	}
	fields := strings.Fields(line[end+1:])
	// fields[0] is field 3 (state): utime is field 14, stime 15.
	if len(fields) < 13 {
		return 0, fmt.Errorf("stat %q: too few fields", line)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("stat field %q: %w", f, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// CPUMeter measures the CPU share of a set of processes over a span of wall time.
type CPUMeter struct {
	pids  map[string]int
	start map[string]time.Duration
	at    time.Time
	// busy and total are the machine's jiffies at the start; cores its core count.
	busy, total int64
	cores       int
}

// NewCPUMeter starts measuring the named processes (name -> pid) now; processes that
// cannot be read are left out.
func NewCPUMeter(pids map[string]int) *CPUMeter {
	m := &CPUMeter{pids: pids, start: map[string]time.Duration{}, at: time.Now(), cores: runtime.NumCPU()}
	m.busy, m.total, _ = machineTicks()
	for name, pid := range pids {
		if d, err := ProcessCPU(pid); err == nil {
			m.start[name] = d
		}
	}
	return m
}

// Shares is each process's CPU since the meter started, in cores busy (1 = one core
// all the time), and the whole machine's under MachineName.
func (m *CPUMeter) Shares() map[string]float64 {
	wall := time.Since(m.at).Seconds()
	out := map[string]float64{}
	if wall <= 0 {
		return out
	}
	for name, before := range m.start {
		if d, err := ProcessCPU(m.pids[name]); err == nil {
			out[name] = (d - before).Seconds() / wall
		}
	}
	if busy, total, err := machineTicks(); err == nil && total > m.total {
		out[MachineName] = float64(m.cores) * float64(busy-m.busy) / float64(total-m.total)
	}
	return out
}

// MachineName is the whole machine in CPU shares: every process, ours or not.
const MachineName = "machine"

// machineTicks reads the first line of /proc/stat: busy and total jiffies over every
// core (iowait counts as idle).
func machineTicks() (busy, total int64, err error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	return parseMachineTicks(string(data))
}

func parseMachineTicks(stat string) (busy, total int64, err error) {
	line, _, _ := strings.Cut(stat, "\n")
	fields := strings.Fields(line)
	if len(fields) < 6 || fields[0] != "cpu" {
		return 0, 0, fmt.Errorf("/proc/stat: first line %q is not the cpu total", line)
	}
	for i, f := range fields[1:] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat field %q: %w", f, err)
		}
		if i < 8 { // user nice system idle iowait irq softirq steal; guest is inside user
			total += n
			if i != 3 && i != 4 {
				busy += n
			}
		}
	}
	return busy, total, nil
}
