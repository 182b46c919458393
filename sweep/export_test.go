package sweep

// QueueFloor is queueFloor, for the external tests.
var QueueFloor = queueFloor
