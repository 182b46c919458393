// Package crashfs is a file system that forgets: a FUSE loopback over a backing
// directory that remembers what each fsync made durable, and on Crash throws away
// everything else, the way a host that loses power would. It is a fault mechanism
// only: it knows nothing of locks or stores, and a topology node mounts it over its
// data directory.
//
// # What counts as durable
//
// Reads and writes pass straight through to the backing directory (the live state),
// so a process on the mount sees an ordinary file system. Beside it, crashfs keeps a
// durable record, changed only by fsync:
//
//   - fsync or fdatasync of a file makes its current content and size durable (and
//     its mode and owner). Nothing else does: a write, a close, a rename, an unmount.
//   - fsync of a directory makes its current entries durable: each name, which file
//     or directory it names, and for a symbolic link its target; and the directory's
//     own mode and owner. A subdirectory's entries need an fsync of that subdirectory.
//   - fsync of a file says nothing of its name: as on ext4, whose manual does not
//     promise it, a new file's entry is durable only once its directory is fsynced.
//     A file created and fsynced in a directory that was never fsynced is lost.
//   - each directory is on its own: a rename from A to B is durable in B when B is
//     fsynced and in A when A is; fsyncing only B keeps the file under both names
//     (as hard links), fsyncing only A loses it.
//   - what the backing directory held at Mount is durable (it is copied aside then).
//
// So the write-temp, fsync, rename, fsync-directory pattern (Redis 7's AOF rewrite,
// PostgreSQL's files and directories) survives whole, and every shortcut of it is
// caught: a rename whose directory was not fsynced reverts to the old file.
//
// # Crash
//
// Crash marks the mount dead (every later operation through it fails with EIO),
// unmounts it (lazily when a process still holds it), reports what the live state
// held beyond the durable record, rewrites the backing directory to the durable
// record, and mounts it again at the same place: the node restarts on what a real
// disk would have kept. Processes on the mount should be killed before Crash, as a
// power loss would; one still running sees EIO, never the rebuilt files.
//
// The report (Report) names each file whose content reverted and how many bytes it
// lost, each entry that disappears and each that comes back, so that a scenario can
// show its fault happened before it judges a trial.
//
// # In a helper process
//
// MountInHelper serves the same mount from a process of its own: this program run again
// (ServeIfAsked), or the build $LOCKBENCH_HELPER_EXE names (make test gives one without
// the race detector). The mount then costs the caller no CPU, and ends when the caller
// dies, as its helper's input closes.
//
// Writes reach the server as FUSE WRITE requests (no writeback cache, no passthrough),
// so none escapes the record; copy_file_range is refused, and the kernel falls back to
// reads and writes.
package crashfs
