package pipe

import "testing"

// FuzzDecodeReplies feeds one line to every reply decoder: none may
// panic, and a decoded reply must hold what the protocol allows (finite
// priorities, one per job asked). The seed corpus is in
// testdata/fuzz/FuzzDecodeReplies.
func FuzzDecodeReplies(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","protocol":1}`, `{"start":[0,5,7]}`, `{"start":[]}`, `{"priority":[1.5,-2,1e300]}`,
		`{"start":[1.5]}`, `{"start":null}`, `{"priority":[NaN]}`, `{"start":[1]}{"start":[2]}`, `{"start":[1],"x":2}`,
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, line []byte, jobs uint8) {
		_ = decodeHello(line, ProtocolVersion)
		if ids, err := decodeStarts(line); err == nil && ids == nil {
			t.Fatalf("%q: no error and no start list", line)
		}
		if ps, err := decodePriorities(line, int(jobs)); err == nil && len(ps) != int(jobs) {
			t.Fatalf("%q: %d priorities for %d jobs", line, len(ps), jobs)
		}
	})
}
