// Package release reproduces the locks broken by how a client takes or gives them
// back on one server: SETNX then EXPIRE (setnx-expire), DEL without checking the
// owner (unsafe-release), GET then DEL (check-then-delete) and checking the lock
// before a write instead of fencing it (check-then-write-lock).
package release
