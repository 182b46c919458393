package zklock

import "testing"

// TestLowestOrdersOurNodesAndTheRecipesBySequence: a one-attempt Acquire must see a
// waiter the recipe granted, whose name sorts after ours as a string.
func TestLowestOrdersOurNodesAndTheRecipesBySequence(t *testing.T) {
	for _, c := range []struct {
		children []string
		want     string
	}{
		{[]string{"lock-0000000007", "_c_0123abcd-lock-0000000005"}, "_c_0123abcd-lock-0000000005"},
		{[]string{"_c_ffff-lock-0000000012", "lock-0000000011", "lock-0000000013"}, "lock-0000000011"},
		{[]string{"other", "lock-x", "lock-0000000002"}, "lock-0000000002"},
		{[]string{"other"}, ""},
		{nil, ""},
	} {
		if got := lowest(c.children); got != c.want {
			t.Errorf("lowest(%q) = %q, want %q", c.children, got, c.want)
		}
	}
}
