package pipe

import (
	"slices"
	"testing"
)

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

// FuzzDecodeStartsNodes feeds one line to the version 2 reply decoders:
// none may panic; a decoded reply has a start list, one entry of named
// nodes (or nil) per start, and a line the version 1 decoder accepts
// decodes to the same ids.
func FuzzDecodeStartsNodes(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","protocol":2}`, `{"start":[0,5,7]}`, `{"start":[]}`, `{"start":[{"id":3,"nodes":[0,1]},4]}`,
		`{"start":[{"id":3}]}`, `{"start":[{"id":3,"nodes":null}]}`, `{"start":[{"id":3,"nodes":[]}]}`,
		`{"start":[{"id":3,"nodes":[1.5]}]}`, `{"start":[{"id":3,"nodes":[0],"x":1}]}`, `{"start":[ {"id":1,"nodes":[2]} ]}`,
		`{"start":["3"]}`, `{"start":[true]}`, `{"start":[{"id":1,"nodes":[0]}{"id":2}]}`, `{"start":[1]}{"start":[2]}`,
		`{"start":[{"id":1,"nodes":[0,3],"cores":[2,4]}]}`, `{"start":[{"id":1,"nodes":[0],"cores":null}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		_ = decodeHello(line, ProtocolVersionNodes)
		ids, named, err := decodeStartsNodes(line)
		if err != nil {
			return
		}
		if ids == nil || len(named) != len(ids) {
			t.Fatalf("%q: %d ids, %d node lists", line, len(ids), len(named))
		}
		for _, n := range named {
			if n.cores != nil && n.nodes == nil {
				t.Fatalf("%q: cores without nodes", line)
			}
		}
		if v1, err := decodeStarts(line); err == nil && !slices.Equal(v1, ids) {
			t.Fatalf("%q: version 1 reads %v, version 2 %v", line, v1, ids)
		}
	})
}
