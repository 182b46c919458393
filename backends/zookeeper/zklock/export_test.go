package zklock

// LockDir is lockDir for the tests, which count the contenders queued in it.
var LockDir = lockDir
