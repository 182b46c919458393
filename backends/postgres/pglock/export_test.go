package pglock

// LockID and LockWaiting are lockID and lockWaiting for the tests, which find the
// backends queued on a key's lock.
var LockID = lockID

const LockWaiting = lockWaiting
