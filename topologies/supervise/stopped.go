package supervise

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// WaitStopped waits (briefly, bounded) until pid is in the stopped state: kill returns
// before a SIGSTOP takes effect, and a fault must not claim a pause the process has not
// yet felt.
func WaitStopped(pid int) {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			return
		}
		// The state follows the command name, which is in parentheses and may hold spaces.
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 {
			if f := strings.Fields(string(b[i+1:])); len(f) > 0 && (f[0] == "T" || f[0] == "t") {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
}
