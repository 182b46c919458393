package crashfs

import (
	"io"
	"os"
)

// copyFile writes a new file dst with src's content.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// copyRange copies src's bytes [start, end) to the same offsets of dst.
func copyRange(src, dst *os.File, start, end int64) error {
	if end <= start {
		return nil
	}
	_, err := io.Copy(io.NewOffsetWriter(dst, start), io.NewSectionReader(src, start, end-start))
	return err
}
