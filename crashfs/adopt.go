package crashfs

import (
	"os"
	"path/filepath"
)

// adoptBacking records everything the backing directory holds as durable: each
// regular file's content is copied aside, since the live file will change in place.
func (f *FS) adoptBacking() error {
	root, err := f.adopt(f.backing)
	if err != nil {
		return err
	}
	f.root = root
	return nil
}

// adopt records path and, for a directory, all it holds, as durable.
func (f *FS) adopt(path string) (*object, error) {
	st, err := lstat(path)
	if err != nil {
		return nil, err
	}
	o := f.newObject(st)
	o.recordMeta(st)
	switch o.kind {
	case modeDir:
		names, err := readNames(path)
		if err != nil {
			return nil, err
		}
		o.entries = make(map[string]*object, len(names))
		for _, name := range names {
			child, err := f.adopt(filepath.Join(path, name))
			if err != nil {
				return nil, err
			}
			o.entries[name] = child
		}
	case modeRegular:
		if err := copyFile(path, o.shadowPath(f.shadow)); err != nil {
			return nil, err
		}
		o.synced = true
	case modeSymlink:
		if o.target, err = os.Readlink(path); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// readNames lists the names in directory path.
func readNames(path string) ([]string, error) {
	d, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}
