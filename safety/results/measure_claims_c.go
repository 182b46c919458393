package results

// WaitShort: WAIT samples of the cost measurement (wait-objections, issue 17 item 4)
// that returned fewer acknowledgements than asked within WAIT's timeout.
const WaitShort Measure = "wait_acks_short"

func init() { Measures = append(Measures, WaitShort) }
