package model

import "testing"

func TestOneTrace(t *testing.T) {
	for _, c := range []struct {
		w    WorkloadSpec
		want string
	}{
		{WorkloadSpec{Instances: 2}, "instances 2: a trace is one workload, its months the cells; want 1 (or leave it out)"},
		{WorkloadSpec{Set: map[string]string{"a": "1"}}, "set applies to generators, not traces"},
	} {
		if err := c.w.OneTrace(", its months the cells"); err == nil || err.Error() != c.want {
			t.Errorf("%+v: got %v, want %q", c.w, err, c.want)
		}
	}
	w := WorkloadSpec{}
	if err := w.OneTrace(""); err != nil || w.Instances != 1 {
		t.Errorf("a plain trace entry: got %v, instances %d; want nil, 1", err, w.Instances)
	}
}
