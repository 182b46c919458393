package backend

import (
	"strings"
	"testing"
)

func TestAScalingAxisIsDeclaredOnceByTheStoreThatPlacesOnIt(t *testing.T) {
	s := NewCatalog()
	nodes := ScalingAxis{Preset: "scaling-nodes", Title: "t", XLabel: "nodes"}
	sized := shape("sized", 1)
	sized.Strategies = []Strategy{{Name: "sized-3", Position: 1, Scaling: &Scaling{Axis: "scaling-nodes", At: 3}}}
	if err := s.Add(Descriptor{Store: "a", Shapes: []Shape{sized}, Axes: []ScalingAxis{nodes}}); err != nil {
		t.Fatal(err)
	}
	stray := shape("stray", 2)
	stray.Strategies = []Strategy{{Name: "stray-5", Position: 2, Scaling: &Scaling{Axis: "scaling-nodes", At: 5}}}
	for _, c := range []struct {
		d    Descriptor
		want string
	}{
		{Descriptor{Store: "b", Shapes: []Shape{shape("other", 3)}, Axes: []ScalingAxis{nodes}}, "scaling axis scaling-nodes registered twice (by b)"},
		{Descriptor{Store: "c", Shapes: []Shape{stray}}, "strategy stray-5 is placed on scaling axis \"scaling-nodes\", which store c does not declare"},
	} {
		if err := s.Add(c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("add(%s) = %v, want an error with %q", c.d.Store, err, c.want)
		}
	}
	if len(s.axes) != 1 {
		t.Errorf("axes %+v, want the first store's only", s.axes)
	}
}
