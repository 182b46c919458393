package supervise

import (
	"bytes"
	"io"
	"os"
)

// StartLog is what a server wrote to its log files since one start began: a failed
// start is judged on all of it (a bind error may sit far above a JVM's stack trace),
// and on nothing an earlier start of the same node left.
type StartLog struct {
	paths   []string
	offsets []int64
}

// MarkStartLog records where each log file ends now, before the server starts.
func MarkStartLog(paths ...string) StartLog {
	l := StartLog{paths: paths, offsets: make([]int64, len(paths))}
	for i, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			l.offsets[i] = fi.Size()
		}
	}
	return l
}

// Bytes is everything written to the files since the mark, file after file.
func (l StartLog) Bytes() []byte {
	var out []byte
	for i, p := range l.paths {
		out = append(out, since(p, l.offsets[i])...)
	}
	return out
}

// PortTaken reports whether the start failed because a port it was given was bound by
// someone else (Redis, PostgreSQL and the JVM say "Address", Go says "address").
func (l StartLog) PortTaken() bool {
	return bytes.Contains(bytes.ToLower(l.Bytes()), []byte("address already in use"))
}

// Tail is the last n bytes since the mark, for an error message.
func (l StartLog) Tail(n int) []byte {
	b := l.Bytes()
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return bytes.TrimSpace(b)
}

// since reads p from offset on; from its start when it shrank (rewritten since).
func since(p string, offset int64) []byte {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() < offset {
		offset = 0
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil
	}
	b, _ := io.ReadAll(f)
	return b
}
