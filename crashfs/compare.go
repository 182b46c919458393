package crashfs

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// liveEntry is one path of the live state.
type liveEntry struct {
	obj  *object
	size int64 // a regular file's size
}

// compare reports what a crash now would throw away. Callers hold f.gate exclusively.
func (f *FS) compare() (Report, error) {
	durable := map[string]*object{}
	collectDurable("", f.root, durable, map[*object]bool{})
	live := map[string]liveEntry{}
	if err := f.collectLive("", f.backing, live); err != nil {
		return Report{}, err
	}
	var r Report
	gone := map[string]bool{} // live directories that do not survive
	counted := map[*object]bool{}
	for _, path := range sortedKeys(live) {
		l := live[path]
		countGone := func() {
			if l.obj.kind == modeRegular && !counted[l.obj] {
				counted[l.obj] = true
				r.BytesDropped += l.size
			}
			gone[path] = true
		}
		d, ok := durable[path]
		switch {
		case underAny(path, gone):
			countGone()
		case !ok:
			r.Dropped = append(r.Dropped, path)
			countGone()
		case d != l.obj:
			r.Replaced = append(r.Replaced, path)
			countGone()
		case l.obj.kind == modeRegular && !counted[l.obj]:
			counted[l.obj] = true
			changed, err := f.changedBytes(filepath.Join(f.backing, path), l.obj)
			if err != nil {
				return Report{}, err
			}
			if changed > 0 {
				r.Reverted = append(r.Reverted, Revert{Path: path, BytesChanged: changed})
				r.BytesDropped += changed
			}
		}
	}
	restored := map[string]bool{}
	for _, path := range sortedKeys(durable) {
		if _, ok := live[path]; !ok && !underAny(path, restored) {
			r.Restored = append(r.Restored, path)
			restored[path] = true
		}
	}
	return r, nil
}

// collectDurable adds the durable paths under directory o, at rel, to out; a directory
// reached twice (renamed and made durable in two places) counts at its first path.
func collectDurable(rel string, o *object, out map[string]*object, seen map[*object]bool) {
	seen[o] = true
	for name, child := range o.entries {
		path := filepath.Join(rel, name)
		if child.kind == modeDir && seen[child] {
			continue
		}
		out[path] = child
		if child.kind == modeDir {
			collectDurable(path, child, out, seen)
		}
	}
}

// collectLive adds the live paths under backing directory dir, at rel, to out.
func (f *FS) collectLive(rel, dir string, out map[string]liveEntry) error {
	names, err := readNames(dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		path, full := filepath.Join(rel, name), filepath.Join(dir, name)
		st, err := lstat(full)
		if err != nil {
			return err
		}
		o := f.objectOf(st)
		out[path] = liveEntry{obj: o, size: st.Size}
		if o.kind == modeDir {
			if err := f.collectLive(path, full, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// changedBytes counts the byte positions where the live file at path and o's durable
// content differ, over the longer of the two.
func (f *FS) changedBytes(path string, o *object) (int64, error) {
	live, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer live.Close()
	var durable io.Reader = bytes.NewReader(nil) // never fsynced: durably empty
	if o.synced {
		d, err := os.Open(o.shadowPath(f.shadow))
		if err != nil {
			return 0, err
		}
		defer d.Close()
		durable = d
	}
	const chunk = 64 << 10
	a, b := make([]byte, chunk), make([]byte, chunk)
	var changed int64
	for {
		na, errA := io.ReadFull(live, a)
		nb, errB := io.ReadFull(durable, b)
		for i := range min(na, nb) {
			if a[i] != b[i] {
				changed++
			}
		}
		changed += int64(max(na, nb) - min(na, nb))
		doneA, doneB := endOf(errA), endOf(errB)
		if err := errors.Join(notEnd(errA), notEnd(errB)); err != nil {
			return 0, err
		}
		if doneA && doneB {
			return changed, nil
		}
		if doneA || doneB { // one ended: the other's remaining bytes all change
			longer := io.Reader(live)
			if doneA {
				longer = durable
			}
			rest, err := io.Copy(io.Discard, longer)
			return changed + rest, err
		}
	}
}

// endOf says a read reached the end of its file.
func endOf(err error) bool { return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) }

// notEnd is err unless it only says the end was reached.
func notEnd(err error) error {
	if err == nil || endOf(err) {
		return nil
	}
	return err
}

// underAny says path lies inside one of the directories in dirs.
func underAny(path string, dirs map[string]bool) bool {
	for dir := filepath.Dir(path); dir != "." && dir != "/"; dir = filepath.Dir(dir) {
		if dirs[dir] {
			return true
		}
	}
	return false
}

// sortedKeys lists m's paths in order, parents before what they hold.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return strings.Compare(filepath.ToSlash(a), filepath.ToSlash(b))
	})
	return keys
}
