package sweep

import (
	"os"
	"strings"
	"testing"
)

// TestReplicateSeed: replicate 0 keeps the root seed; the others are the
// first 8 bytes (big-endian) of SHA-256("sweep-replicate\x00<root>\x00<r>"):
//
//	python3 -c "import hashlib; print(int.from_bytes(hashlib.sha256(b'sweep-replicate\x002013\x001').digest()[:8],'big'))"
//	9560667681711057934 (and 6219897557753559834 for replicate 2)
func TestReplicateSeed(t *testing.T) {
	for _, tt := range []struct {
		r    int
		want uint64
	}{{0, 2013}, {1, 9560667681711057934}, {2, 6219897557753559834}} {
		if got := ReplicateSeed(2013, tt.r); got != tt.want {
			t.Errorf("ReplicateSeed(2013, %d) = %d; want %d", tt.r, got, tt.want)
		}
	}
}

// TestReplicatesAxis: three replicates triple the cells; replicate 0's
// cells keep the ids they have without replicates, the others get new
// ids, their own workload seeds and a name that says which replicate.
func TestReplicatesAxis(t *testing.T) {
	m := loadSmall(t)
	base := m.Cells()
	if err := m.SetReplicates(3); err != nil {
		t.Fatal(err)
	}
	cells := m.Cells()
	if len(cells) != 3*len(base) {
		t.Fatalf("%d cells with 3 replicates; want %d", len(cells), 3*len(base))
	}
	ids := map[string]bool{}
	for i, c := range cells {
		if ids[c.ID] {
			t.Fatalf("cell id %s twice", c.ID)
		}
		ids[c.ID] = true
		r := i / len(base)
		if c.Replicate != r {
			t.Errorf("cell %d: replicate %d; want %d", i, c.Replicate, r)
		}
		b := base[i%len(base)]
		switch {
		case r == 0 && (c.ID != b.ID || c.WorkloadSeed != b.WorkloadSeed || c.Name() != b.Name()):
			t.Errorf("replicate 0 cell %s (%s): differs from the cell without replicates %s (%s)", c.ID, c.Name(), b.ID, b.Name())
		case r > 0 && (c.WorkloadSeed == b.WorkloadSeed || !strings.HasSuffix(c.Name(), "/r"+string(rune('0'+r)))):
			t.Errorf("replicate %d cell %s: workload seed %v (replicate 0: %v); want another; name %s", r, c.Name(), c.WorkloadSeed, b.WorkloadSeed, c.Name())
		}
	}
	if err := m.SetReplicates(0); err == nil {
		t.Error("SetReplicates(0): no error")
	}
}

// TestReplicatesRun: adding a replicate to a finished run runs only its
// cells; the result equals a fresh run of both replicates at -j 1 and one
// split into two shards, bit for bit.
func TestReplicatesRun(t *testing.T) {
	m := loadSmall(t)
	grown, fresh, sharded := t.TempDir(), t.TempDir(), t.TempDir()
	mustRun(t, m, RunOptions{Out: grown, Jobs: 2})
	if err := m.SetReplicates(2); err != nil {
		t.Fatal(err)
	}
	if s := mustRun(t, m, RunOptions{Out: grown, Jobs: 2}); s.Ran != 24 || s.AlreadyDone != 24 {
		t.Fatalf("second replicate: ran %d, already done %d; want 24, 24", s.Ran, s.AlreadyDone)
	}
	if s := mustRun(t, m, RunOptions{Out: fresh, Jobs: 1}); s.Ran != 48 {
		t.Fatalf("fresh run of 2 replicates ran %d cells; want 48", s.Ran)
	}
	for i := 1; i <= 2; i++ {
		mustRun(t, m, RunOptions{Out: sharded, Jobs: 2, Shard: Shard{Index: i, Count: 2}})
	}
	for _, name := range []string{"cells", "jobs"} {
		key := cellKey
		if name == "jobs" {
			key = jobKey
		}
		a := tableOf(t, m, fresh, name, key)
		for _, dir := range []string{grown, sharded} {
			b := tableOf(t, m, dir, name, key)
			if len(a) != len(b) {
				t.Fatalf("%s: %d rows vs %d", name, len(a), len(b))
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%s row %d differs:\n%s\n%s", name, i, a[i], b[i])
				}
			}
		}
	}
}

func TestReplicatesInManifest(t *testing.T) {
	data, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseManifest([]byte(strings.Replace(string(data), "seed: 7\n", "seed: 7\nreplicates: 3\n", 1)), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if m.ReplicateCount() != 3 || len(m.Cells()) != 72 {
		t.Errorf("replicates: 3 gives %d replicates, %d cells; want 3, 72", m.ReplicateCount(), len(m.Cells()))
	}
	_, err = ParseManifest([]byte(strings.Replace(string(data), "seed: 7\n", "seed: 7\nreplicates: -2\n", 1)), "r.yaml")
	if err == nil || !strings.Contains(err.Error(), "r.yaml: line 4: replicates: -2; want a whole number >= 1") {
		t.Errorf("replicates: -2: error %v", err)
	}
	// Leaving replicates out and writing 1 describe the same cells, and
	// the manifest's hash ignores the field when it is left out.
	one, err := ParseManifest([]byte(strings.Replace(string(data), "seed: 7\n", "seed: 7\nreplicates: 1\n", 1)), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := one.Cells(), loadSmall(t).Cells(); len(a) != len(b) || a[0].ID != b[0].ID {
		t.Error("replicates: 1 changes the cells")
	}
}

// TestReplicatesSkipTraces: the campaign test manifest has a synthetic
// workload (2 instances x 2 policies after its exclusion) and a trace (1
// instance x 3 policies). With 2 replicates the synthetic cells double
// and the trace's stay in replicate 0: 2 x 4 + 3 = 11 cells.
func TestReplicatesSkipTraces(t *testing.T) {
	m := loadTestManifest(t, "testdata/campaigns.yaml")
	if n := len(m.Cells()); n != 7 {
		t.Fatalf("%d cells with one replicate; want 7", n)
	}
	if err := m.SetReplicates(2); err != nil {
		t.Fatal(err)
	}
	var trace, synth1 int
	for _, c := range m.Cells() {
		switch {
		case c.Workload == "head":
			trace++
			if c.Replicate != 0 {
				t.Errorf("trace cell %s in replicate %d", c.Name(), c.Replicate)
			}
		case c.Replicate == 1:
			synth1++
		}
	}
	if trace != 3 || synth1 != 4 || len(m.Cells()) != 11 {
		t.Errorf("%d trace cells, %d synthetic cells in replicate 1, %d in all; want 3, 4, 11", trace, synth1, len(m.Cells()))
	}
}
