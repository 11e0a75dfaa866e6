package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Bootstrap test data: two paired vectors of 10 values.
var (
	bootstrapX = []float64{3.1, 0.4, 7.7, 2.2, 5.0, 1.9, 9.3, 4.4, 0.8, 6.6}
	bootstrapY = []float64{2.0, 1.1, 6.5, 2.9, 4.1, 2.5, 7.0, 4.0, 1.6, 5.2}
)

func meanOf(v []float64) func([]int) float64 {
	return func(indices []int) float64 {
		var sum float64
		for _, i := range indices {
			sum += v[i]
		}
		return sum / float64(len(indices))
	}
}

// TestPercentileBootstrapNumpy checks the intervals against numpy on the
// same resamples. testdata/bootstrap_indices.txt holds the 2,000
// resamples of 10 indices that BootstrapIndices draws with
// BootstrapSeed("bootstrap test") (written by BootstrapIndices itself: the
// test first checks that the stream has not changed). The reference values
// are numpy 1.24.2's, computed from that file:
//
//	idx = np.loadtxt("bootstrap_indices.txt", dtype=int)
//	mx, my = x[idx].mean(axis=1), y[idx].mean(axis=1)
//	np.percentile(mx, [2.5, 97.5]), np.percentile(my, ...), np.percentile(mx - my, ...)
//
// x: 4.14 [2.39975, 5.92025]; y: 3.69 [2.5, 4.8905]; x - y: 0.45 [-0.21, 1.09].
func TestPercentileBootstrapNumpy(t *testing.T) {
	data, err := os.ReadFile("testdata/bootstrap_indices.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	seed := BootstrapSeed("bootstrap test")
	visited := 0
	BootstrapIndices(10, BootstrapResamples, seed, func(r int, indices []int) {
		visited++
		want := strings.Fields(lines[r])
		for i, f := range want {
			if v, _ := strconv.Atoi(f); v != indices[i] {
				t.Fatalf("resample %d: indices %v; want %v (the stream changed)", r, indices, want)
			}
		}
	})
	if visited != len(lines) || visited != 2000 {
		t.Fatalf("%d resamples, file has %d; want 2000", visited, len(lines))
	}
	mx, my := meanOf(bootstrapX), meanOf(bootstrapY)
	got, err := PercentileBootstrap(10, BootstrapResamples, seed, 0.95, mx, my, func(i []int) float64 { return mx(i) - my(i) })
	if err != nil {
		t.Fatal(err)
	}
	want := []BootstrapInterval{
		{Estimate: 4.14, Low: 2.39975, High: 5.9202499999999985},
		{Estimate: 3.6900000000000004, Low: 2.5, High: 4.890499999999998},
		{Estimate: 0.4499999999999993, Low: -0.2100000000000004, High: 1.0899999999999999},
	}
	for s := range want {
		g, w := got[s], want[s]
		if math.Abs(g.Estimate-w.Estimate) > 1e-12 || math.Abs(g.Low-w.Low) > 1e-12 || math.Abs(g.High-w.High) > 1e-12 {
			t.Errorf("statistic %d: %+v; want numpy's %+v", s, g, w)
		}
	}
}

// TestPercentileBootstrapProperties: the same seed gives the same
// intervals and another seed others; a constant sample has a zero-width
// interval at the constant; a mean's interval lies within the sample's
// range; the difference of a vector with itself is 0 on every resample; a
// statistic that is NaN on some resamples is left out of those; bad
// arguments are errors.
func TestPercentileBootstrapProperties(t *testing.T) {
	mx := meanOf(bootstrapX)
	a, _ := PercentileBootstrap(10, 500, BootstrapSeed("a"), 0.95, mx)
	b, _ := PercentileBootstrap(10, 500, BootstrapSeed("a"), 0.95, mx)
	c, _ := PercentileBootstrap(10, 500, BootstrapSeed("c"), 0.95, mx)
	if a[0] != b[0] || a[0] == c[0] {
		t.Errorf("seed a twice: %+v, %+v; seed c: %+v; want the first two equal, the third different", a[0], b[0], c[0])
	}
	if lo, hi := slices.Min(bootstrapX), slices.Max(bootstrapX); a[0].Low < lo || a[0].High > hi || a[0].Low > a[0].High {
		t.Errorf("mean interval %+v outside the sample's range [%v, %v]", a[0], lo, hi)
	}
	constant := meanOf([]float64{2.5, 2.5, 2.5, 2.5})
	same := func(i []int) float64 { return mx(i) - mx(i) }
	got, _ := PercentileBootstrap(4, 100, BootstrapSeed("k"), 0.9, constant, same)
	if want := (BootstrapInterval{2.5, 2.5, 2.5}); got[0] != want {
		t.Errorf("constant sample: %+v; want %+v", got[0], want)
	}
	if want := (BootstrapInterval{0, 0, 0}); got[1] != want {
		t.Errorf("difference of a vector with itself: %+v; want %+v", got[1], want)
	}
	// Index 0 alone is undefined: the statistic is NaN on a resample
	// of index 0 only, which two items make likely enough (1 in 4).
	partial := func(i []int) float64 {
		if slices.Equal(i, []int{0, 0}) {
			return math.NaN()
		}
		return 1
	}
	if got, _ := PercentileBootstrap(2, 100, BootstrapSeed("p"), 0.95, partial); got[0] != (BootstrapInterval{1, 1, 1}) {
		t.Errorf("NaN resamples: %+v; want {1 1 1}", got[0])
	}
	for _, bad := range []struct {
		n, resamples int
		level        float64
	}{{0, 10, 0.95}, {5, 0, 0.95}, {5, 10, 1}, {5, 10, 0}} {
		if _, err := PercentileBootstrap(bad.n, bad.resamples, BootstrapSeed("x"), bad.level, mx); err == nil {
			t.Errorf("n %d resamples %d level %v: no error", bad.n, bad.resamples, bad.level)
		}
	}
}

// TestPercentileBootstrapsShared: resamples shared among 1 to 4
// goroutines, a statistic each with its own scratch, give the intervals of
// PercentileBootstrap to the bit, over a count of resamples that leaves a
// short last batch, with NaN resamples left out.
func TestPercentileBootstrapsShared(t *testing.T) {
	mx, my := meanOf(bootstrapX), meanOf(bootstrapY)
	// firstTwice is NaN on resamples whose first two picks are equal (1 in
	// 10), and otherwise the sum of its picks' scratch counts, which a
	// statistic shared between goroutines would garble.
	newFirstTwice := func() func([]int) float64 {
		counts := make([]int, len(bootstrapX))
		return func(indices []int) float64 {
			if indices[0] == indices[1] {
				return math.NaN()
			}
			clear(counts)
			for _, i := range indices {
				counts[i]++
			}
			return float64(counts[indices[0]]) + bootstrapX[indices[1]]
		}
	}
	const resamples = 5*bootstrapBatch + 3
	want, err := PercentileBootstrap(10, resamples, BootstrapSeed("shared"), 0.9, mx, my, newFirstTwice())
	if err != nil {
		t.Fatal(err)
	}
	for goroutines := 1; goroutines <= 4; goroutines++ {
		got, err := percentileBootstraps(10, resamples, BootstrapSeed("shared"), 0.9, 3, goroutines, func() func([]int, []float64) {
			firstTwice := newFirstTwice()
			return func(indices []int, values []float64) {
				values[0], values[1], values[2] = mx(indices), my(indices), firstTwice(indices)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d goroutines: %+v; want %+v", goroutines, got, want)
		}
	}
}

// TestIndexStreamIsRandIntN: the resampler's draws are rand.Rand's IntN
// on the same PCG stream, draw for draw, for sizes of every kind (one, a
// power of two, just above and below one, and odd sizes) and for a size
// whose threshold rejects often (n = 3 x 2^61: 2^64 mod n = 2^62, so a
// quarter of the draws are drawn again).
func TestIndexStreamIsRandIntN(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64, 65, 127, 150, 1000, 1 << 20, 1<<20 + 1, 1<<62 + 12345, 3 << 61, 1<<63 - 1} {
		seed := BootstrapSeed("index stream", fmt.Sprint(n))
		want := rand.New(rand.NewPCG(seed[0], seed[1]))
		draw := newResampler(n, seed)
		got := make([]int, 5000)
		draw(got)
		for i, g := range got {
			if w := want.IntN(n); g != w {
				t.Fatalf("n = %d, draw %d: %d, rand.IntN %d", n, i, g, w)
			}
		}
	}
}
