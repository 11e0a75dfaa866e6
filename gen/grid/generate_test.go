package grid

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/dag"
)

// generate builds one instance of a preset with overrides, failing the test
// on error.
func generate(t *testing.T, preset string, instance int, settings ...string) (*dag.Workload, Params) {
	t.Helper()
	p, err := Lookup(preset)
	if err != nil {
		t.Fatal(err)
	}
	params := p.Defaults()
	if err := params.SetAll(settings); err != nil {
		t.Fatal(err)
	}
	w, err := Generate(params, 1, instance)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Validate(); err != nil {
		t.Fatalf("%s: generated workload is invalid: %v", preset, err)
	}
	return w, params
}

func taskPos(t *testing.T, id string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimPrefix(id, "T"))
	if err != nil || !strings.HasPrefix(id, "T") {
		t.Fatalf("task id %q: want T<position+1>", id)
	}
	return n - 1
}

// Every preset at Table 2 scale: the job count, task execution times
// summing exactly to total (1e10), job sizes within the discard bounds,
// ids by position, and predecessors listed before their successors.
func TestPresetsAtTable2Scale(t *testing.T) {
	wantJobs := map[string]int{
		"burkimsher2013/uniform-independent": 10000,
		"burkimsher2013/log-independent":     10000,
		"burkimsher2013/probabilistic":       1000,
		"burkimsher2013/fan":                 1000,
		"burkimsher2013/fan-chain":           1000,
	}
	if got := Presets(); len(got) != len(wantJobs) {
		t.Fatalf("Presets() = %v; want the %d Table 2 presets", got, len(wantJobs))
	}
	for _, name := range Presets() {
		w, params := generate(t, name, 0)
		if len(w.Jobs) != wantJobs[name] {
			t.Errorf("%s: %d jobs; want %d", name, len(w.Jobs), wantJobs[name])
		}
		dist, _ := params.Get("job-dist")
		var total int64
		for k, j := range w.Jobs {
			if j.ID != "J"+strconv.Itoa(k+1) {
				t.Fatalf("%s: job %d has id %q; want J%d", name, k, j.ID, k+1)
			}
			var size int64
			for i, task := range j.Tasks {
				size += task.ExecTicks
				if taskPos(t, task.ID) != i {
					t.Fatalf("%s: job %s task %d has id %q; want T%d", name, j.ID, i, task.ID, i+1)
				}
				for _, a := range task.After {
					if taskPos(t, a) >= i {
						t.Fatalf("%s: job %s task %s follows %s, which is not earlier", name, j.ID, task.ID, a)
					}
				}
			}
			if dist == DistUUniFastDiscard && (size < params.cfg.jobBounds.Min || size > params.cfg.jobBounds.Max) {
				t.Fatalf("%s: job %s size %d outside [%d, %d]", name, j.ID, size, params.cfg.jobBounds.Min, params.cfg.jobBounds.Max)
			}
			total += size
		}
		if total != 1e10 {
			t.Errorf("%s: task execution times sum to %d; want exactly 10000000000", name, total)
		}
	}
}

// matchFanBlocks reports whether tasks[s:] is a series of fan blocks laid
// out as documented (fan-out, chains level by level, fan-in), each block's
// fan-out after the previous fan-in, with widths and lengths within the
// ranges and between minBlocks and maxBlocks blocks. A path (width 1) can
// be cut into blocks several ways, so it searches all lengths.
func matchFanBlocks(tasks []dag.Task, s int, width, length intRange, minBlocks, maxBlocks int) bool {
	if s == len(tasks) {
		return minBlocks <= 0
	}
	if maxBlocks == 0 {
		return false
	}
	id := func(pos int) string { return "T" + strconv.Itoa(pos+1) }
	var wantFanOut []string
	if s > 0 {
		wantFanOut = []string{id(s - 1)}
	}
	if !slices.Equal(tasks[s].After, wantFanOut) {
		return false
	}
	w := 0
	for _, task := range tasks[s+1:] {
		if slices.Equal(task.After, []string{id(s)}) {
			w++
		}
	}
	if w < width.Min || w > width.Max {
		return false
	}
	for l := length.Min; l <= length.Max; l++ {
		fanIn := s + 1 + w*l
		if fanIn >= len(tasks) {
			break
		}
		ok := true
		for level := 0; level < l && ok; level++ {
			for c := 0; c < w && ok; c++ {
				pred := id(s)
				if level > 0 {
					pred = id(s + 1 + (level-1)*w + c)
				}
				ok = slices.Equal(tasks[s+1+level*w+c].After, []string{pred})
			}
		}
		var tails []string
		for c := 0; c < w; c++ {
			tails = append(tails, id(fanIn-w+c))
		}
		if ok && slices.Equal(tasks[fanIn].After, tails) &&
			matchFanBlocks(tasks, fanIn+1, width, length, minBlocks-1, maxBlocks-1) {
			return true
		}
	}
	return false
}

// fan jobs: one block of width x length + 2 tasks with exactly the fan
// edges; fan-chain jobs: 1-3 such blocks, each fan-out after the previous
// fan-in.
func TestFanShapes(t *testing.T) {
	cases := []struct {
		preset         string
		width, length  intRange
		minBlk, maxBlk int
	}{
		{"burkimsher2013/fan", intRange{1, 10}, intRange{3, 15}, 1, 1},
		{"burkimsher2013/fan-chain", intRange{1, 5}, intRange{3, 15}, 1, 3},
	}
	for _, c := range cases {
		w, _ := generate(t, c.preset, 3)
		for _, j := range w.Jobs {
			if !matchFanBlocks(j.Tasks, 0, c.width, c.length, c.minBlk, c.maxBlk) {
				t.Fatalf("%s: job %s (%d tasks) is not a series of %d-%d fan blocks of width %v and length %v", c.preset, j.ID, len(j.Tasks), c.minBlk, c.maxBlk, c.width, c.length)
			}
		}
	}
	// A fan with width 2 and length 3 has 2 x 3 + 2 = 8 tasks:
	// T1 -> T2, T3; T2 -> T4 -> T6; T3 -> T5 -> T7; T6, T7 -> T8.
	w, _ := generate(t, "burkimsher2013/fan", 0, "jobs=1", "width=2", "length=3", "total=1000", "job-min=8", "job-max=1000")
	want := [][]string{nil, {"T1"}, {"T1"}, {"T2"}, {"T3"}, {"T4"}, {"T5"}, {"T6", "T7"}}
	for i, task := range w.Jobs[0].Tasks {
		if !slices.Equal(task.After, want[i]) {
			t.Errorf("fan 2x3: task %s after %v; want %v", task.ID, task.After, want[i])
		}
	}
}

// probabilistic: edges point from earlier to later tasks only, without
// duplicates, and their density over all ordered pairs i < j is p = 0.3.
// With N pairs the edge count is Binomial(N, p), so the density has
// standard deviation sqrt(p(1-p)/N); we allow 4 of them (a correct
// generator fails with probability 6e-5). Task counts cover 1..20.
func TestProbabilisticEdges(t *testing.T) {
	const p = 0.3
	w, _ := generate(t, "burkimsher2013/probabilistic", 0)
	var pairs, edges int
	counts := map[int]int{}
	for _, j := range w.Jobs {
		n := len(j.Tasks)
		counts[n]++
		pairs += n * (n - 1) / 2
		for i, task := range j.Tasks {
			seen := map[string]bool{}
			for _, a := range task.After {
				if taskPos(t, a) >= i || seen[a] {
					t.Fatalf("job %s task %s: predecessor %s is not an earlier, distinct task", j.ID, task.ID, a)
				}
				seen[a] = true
			}
			edges += len(task.After)
		}
	}
	density := float64(edges) / float64(pairs)
	tol := 4 * math.Sqrt(p*(1-p)/float64(pairs))
	if math.Abs(density-p) > tol {
		t.Errorf("edge density %d/%d = %.4f; want %.1f +- %.4f", edges, pairs, density, p, tol)
	}
	for n := 1; n <= 20; n++ {
		if counts[n] == 0 {
			t.Errorf("no job has %d tasks; want every count in 1-20 (inclusive range)", n)
		}
	}
	if counts[0] > 0 || counts[21] > 0 {
		t.Errorf("task counts outside 1-20: %v", counts)
	}
}

// Cores are uniform over {1,5,10,15,20}, kinds Kind2 with probability 0.2,
// shares uniform over u1..u5. Each frequency estimate of a probability q
// from N draws has standard deviation sqrt(q(1-q)/N); we allow 4.
func TestTaskAttributeFrequencies(t *testing.T) {
	within := func(what string, count, n int, q float64) {
		t.Helper()
		f := float64(count) / float64(n)
		if tol := 4 * math.Sqrt(q*(1-q)/float64(n)); math.Abs(f-q) > tol {
			t.Errorf("%s: frequency %d/%d = %.4f; want %.3f +- %.4f", what, count, n, f, q, tol)
		}
	}
	w, _ := generate(t, "burkimsher2013/fan", 1)
	cores := map[int]int{}
	var tasks, kind2 int
	for _, j := range w.Jobs {
		for _, task := range j.Tasks {
			tasks++
			cores[task.Cores]++
			switch task.Kind {
			case Kind2:
				kind2++
			case Kind1:
			default:
				t.Fatalf("task kind %q; want Kind1 or Kind2", task.Kind)
			}
		}
	}
	for _, c := range []int{1, 5, 10, 15, 20} {
		within("cores="+strconv.Itoa(c), cores[c], tasks, 0.2)
	}
	if len(cores) != 5 {
		t.Errorf("core counts used: %v; want only 1, 5, 10, 15, 20", cores)
	}
	within("Kind2", kind2, tasks, 0.2)

	w, _ = generate(t, "burkimsher2013/log-independent", 1)
	shares := map[string]int{}
	for _, j := range w.Jobs {
		shares[j.Share]++
	}
	for i := 1; i <= 5; i++ {
		within("share u"+strconv.Itoa(i), shares["u"+strconv.Itoa(i)], len(w.Jobs), 0.2)
	}
	if len(shares) != 5 {
		t.Errorf("shares used: %v; want u1..u5", shares)
	}

	// Overrides take effect: one core count, never Kind2, one share.
	w, _ = generate(t, "burkimsher2013/probabilistic", 0, "cores=7", "kind2-prob=0", "shares=1", "jobs=50")
	for _, j := range w.Jobs {
		for _, task := range j.Tasks {
			if task.Cores != 7 || task.Kind != Kind1 || j.Share != "u1" {
				t.Fatalf("job %s task %s: cores %d kind %s share %s; want 7, Kind1, u1", j.ID, task.ID, task.Cores, task.Kind, j.Share)
			}
		}
	}
}

func encode(t *testing.T, w *dag.Workload) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := w.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterminism(t *testing.T) {
	for _, name := range Presets() {
		a, _ := generate(t, name, 4)
		b, _ := generate(t, name, 4)
		if !bytes.Equal(encode(t, a), encode(t, b)) {
			t.Errorf("%s: two generations of instance 4 differ", name)
		}
		c, _ := generate(t, name, 5)
		if bytes.Equal(encode(t, a), encode(t, c)) {
			t.Errorf("%s: instances 4 and 5 are identical; want different workloads", name)
		}
	}
	// The same parameters written differently are the same workload.
	a, pa := generate(t, "burkimsher2013/fan", 0, "total=1e10", "width= 1-10")
	b, pb := generate(t, "burkimsher2013/fan", 0)
	if pa.Canonical() != pb.Canonical() || !bytes.Equal(encode(t, a), encode(t, b)) {
		t.Errorf("total=1e10 width=' 1-10' gave %q; want the defaults' %q and the same workload", pa.Canonical(), pb.Canonical())
	}
}

// The seed derivation is pinned: coreutils sha256sum of the documented
// bytes, printf 'sweep/gen/v1\0' '\0\0\0\0\0\0\0\x2a' 'burkimsher2013/fan jobs=3'
// '\0' '\0\0\0\0\0\0\0\x07', is 1915735ff63e0f2a ea5d7ac11b9444bf ...
func TestInstanceSeed(t *testing.T) {
	got := InstanceSeed(42, "burkimsher2013/fan jobs=3", 7)
	want := [2]uint64{0x1915735ff63e0f2a, 0xea5d7ac11b9444bf}
	if got != want {
		t.Errorf("InstanceSeed(42, ..., 7) = %#x; want %#x", got, want)
	}
	if InstanceSeed(42, "burkimsher2013/fan jobs=3", 8) == got || InstanceSeed(43, "burkimsher2013/fan jobs=3", 7) == got ||
		InstanceSeed(42, "burkimsher2013/fan jobs=4", 7) == got {
		t.Errorf("InstanceSeed ignores one of its inputs")
	}
}

// A tiny fan-chain workload pinned byte for byte: any change to the draw
// order or the rounding rules shows up here (regenerate with -update only
// for an intended change, and say so in the change log).
func TestGolden(t *testing.T) {
	w, _ := generate(t, "burkimsher2013/fan-chain", 0, "jobs=3", "total=3000", "job-min=231", "job-max=3000", "width=1-2", "length=1-3")
	checkGolden(t, "fan-chain-3jobs.json", encode(t, w))
}

func TestParamErrors(t *testing.T) {
	if _, err := Lookup("burkimsher2013/nope"); err == nil || !strings.Contains(err.Error(), "burkimsher2013/fan-chain") {
		t.Errorf("Lookup of an unknown preset: %v; want an error listing the presets", err)
	}
	cases := []struct {
		preset, setting, contains string
	}{
		{"burkimsher2013/fan", "depth=3", "valid parameters: cores, job-dist, job-max, job-min, job-tries, jobs, kind2-prob, length"},
		{"burkimsher2013/fan", "dep-prob=0.3", "valid parameters:"}, // not a fan parameter
		{"burkimsher2013/fan", "width", "want key=value"},
		{"burkimsher2013/fan", "width=5-2", "inclusive range"},
		{"burkimsher2013/fan", "width=0-3", "1 <= min"},
		{"burkimsher2013/probabilistic", "dep-prob=1.5", "probability in [0, 1]"},
		{"burkimsher2013/fan", "job-dist=normal", "uniform, uunifast, uunifast-discard, loguniform"},
		{"burkimsher2013/fan", "total=1.5", "whole number of ticks"},
		{"burkimsher2013/fan", "cores=1,x", "list like 1,5,10,15,20"},
	}
	for _, c := range cases {
		p, _ := Lookup(c.preset)
		params := p.Defaults()
		err := params.SetAll([]string{c.setting})
		if err == nil || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s %s: error %v; want one containing %q", c.preset, c.setting, err, c.contains)
		}
	}
	invalid := []struct {
		preset   string
		settings []string
		contains string
	}{
		// 10 x 15 + 2 = 152 tasks per job at most: job-min must cover them.
		{"burkimsher2013/fan", []string{"job-min=100"}, "want job-min >= 152"},
		{"burkimsher2013/fan", []string{"total=1000000"}, "exceed total"},
		{"burkimsher2013/log-independent", []string{"job-max=1000"}, "want job-max >= 1000000"},
		{"burkimsher2013/uniform-independent", []string{"jobs=10", "total=5"}, "want total >= jobs"},
	}
	for _, c := range invalid {
		p, _ := Lookup(c.preset)
		params := p.Defaults()
		if err := params.SetAll(c.settings); err != nil {
			t.Fatal(err)
		}
		_, err := Generate(params, 1, 0)
		if err == nil || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s %v: error %v; want one containing %q", c.preset, c.settings, err, c.contains)
		}
	}
	// A non-discard distribution can draw a job too small for its tasks,
	// which would fail every cell of the instance: refused before
	// anything is drawn, naming the fix (issue 35: infeasible generator
	// settings checked at plan time). fan's largest job has
	// 10 x 15 + 2 = 152 tasks.
	p, _ := Lookup("burkimsher2013/fan")
	params := p.Defaults()
	if err := params.SetAll([]string{"job-dist=uniform", "jobs=10", "total=100"}); err != nil {
		t.Fatal(err)
	}
	want := "job-dist=uniform can draw a job of fewer ticks than its tasks (up to 152); jobs of several tasks need job-dist=uunifast-discard with job-min >= 152"
	if err := params.Validate(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("fan jobs of ~10 ticks: Validate error %v; want one containing %q", err, want)
	}
}

// Ranges are inclusive: 1000 draws from 3-15 hit both ends (each end is
// missed with probability (12/13)^1000 = 1e-35) and nothing outside.
func TestRangesAreInclusive(t *testing.T) {
	r, err := parseRange("3-15")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	rng := testRNG(1)
	for range 1000 {
		seen[r.draw(rng)]++
	}
	if seen[3] == 0 || seen[15] == 0 || seen[2] > 0 || seen[16] > 0 || len(seen) != 13 {
		t.Errorf("draws from 3-15 gave %v; want all of 3..15 and nothing else", seen)
	}
	if single, err := parseRange("4"); err != nil || single != (intRange{4, 4}) {
		t.Errorf("parseRange(\"4\") = %v, %v; want 4-4", single, err)
	}
}
