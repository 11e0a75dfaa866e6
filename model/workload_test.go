package model

import (
	"errors"
	"io"
	"strings"
	"testing"
)

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

// ReadHashed hashes all of its input whatever read consumes: "abc" is
// FIPS 180-2's SHA-256 example, ba7816bf...15ad, read one byte or none;
// read's error comes back as it is.
func TestReadHashed(t *testing.T) {
	const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	for _, n := range []int{0, 1, 3} {
		sum, err := ReadHashed(strings.NewReader("abc"), func(r io.Reader) error {
			_, err := io.ReadFull(r, make([]byte, n))
			return err
		})
		if err != nil || sum != abc {
			t.Errorf("read %d bytes: %s %v, want %s", n, sum, err, abc)
		}
	}
	bad := errors.New("not an SWF line")
	if _, err := ReadHashed(strings.NewReader("abc"), func(io.Reader) error { return bad }); err != bad {
		t.Errorf("read's error: %v, want %v", err, bad)
	}
}
