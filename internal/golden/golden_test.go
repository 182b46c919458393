package golden

import "testing"

func TestFirstDiffNamesTheFirstLineThatParts(t *testing.T) {
	if got := FirstDiff("a\nb\nc", "a\nb\nc"); got != "" {
		t.Errorf("same texts: %q, want none", got)
	}
	if got, want := FirstDiff("a\nb\nc", "a\nx\nc"), "line 2:\nwant: b\ngot:  x"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := FirstDiff("a", "a\nmore"), "line 2:\nwant: \ngot:  more"; got != want {
		t.Errorf("a longer text: %q, want %q", got, want)
	}
}
