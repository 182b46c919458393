// Package lostupdates breaks the lock in the middle of a change to an account row on
// PostgreSQL (lost-updates) and audits the rows: which write guard (unfenced, fenced,
// check-then-write, read-modify-write, outbox) keeps the data correct. The account
// resource registers itself from backends/postgres/pgresource, so that this package carries no
// database driver.
package lostupdates
