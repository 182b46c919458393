package lockstest

import "testing"

func TestFirstNonIncreasingSeesARegression(t *testing.T) {
	if got := FirstNonIncreasing([]int64{3, 5, 9, 9}); got != 3 {
		t.Errorf("repeat: %d, want 3", got)
	}
	if got := FirstNonIncreasing([]int64{3, 5, 4}); got != 2 {
		t.Errorf("regression: %d, want 2", got)
	}
	if got := FirstNonIncreasing([]int64{3, 5, 9}); got != -1 {
		t.Errorf("increasing: %d, want -1", got)
	}
}
