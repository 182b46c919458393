package bench

import "testing"

func TestParseBaselineCSV(t *testing.T) {
	out := `"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
"SET lock:__rand_int__ v NX PX 30000","62695.92","0.669","0.168","0.559","1.151","1.631","4.159"
`
	b, err := parseBaselineCSV(out)
	if err != nil {
		t.Fatal(err)
	}
	if b.RequestsPerSecond != 62695.92 || b.P50Ms != 0.559 || b.P99Ms != 1.631 {
		t.Errorf("parsed %+v", b)
	}
	if _, err := parseBaselineCSV("ERROR: connection refused\n"); err == nil {
		t.Error("garbage parsed as a baseline")
	}
}
