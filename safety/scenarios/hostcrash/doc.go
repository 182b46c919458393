// Package hostcrash holds the safety scenario of a Redis master whose host loses
// power right after a grant: it restarts on what its disk had fsynced, and each
// appendfsync policy keeps the acknowledged lock or loses it.
package hostcrash
