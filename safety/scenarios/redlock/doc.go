// Package redlock reproduces what Redlock's quorum of independent masters keeps and
// loses: a master restarted without its data (redlock-restart), the grants a quorum
// of subsets lets through (redlock-quorum), and fencing by the largest of the
// masters' counters (redlock-fence).
package redlock
