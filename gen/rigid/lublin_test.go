package rigid

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// within reports whether a sample share of n draws is within four standard
// errors, 4 sqrt(p(1-p)/n), of the probability p: a correct generator
// fails with probability about 6e-5 per check (and the seeds are fixed).
func within(share, p float64, n int) bool {
	return math.Abs(share-p) <= 4*math.Sqrt(p*(1-p)/float64(n))
}

// TestLublinGolden pins the first jobs of one seed: any change to the draws
// or their order shows here. Recorded from this implementation (the
// authors' code uses another random stream; the distributions are compared
// in TestAgainstReference).
func TestLublinGolden(t *testing.T) {
	w, classes, err := Lublin(DefaultParams(), 128, 8, [2]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		number, submit int64
		procs          int
		run            int64
		class          Class
	}{
		{1, 153, 8, 9, Interactive},
		{2, 211, 32, 52, Interactive},
		{3, 221, 8, 23, Interactive},
		{4, 719, 1, 6, Batch},
		{5, 1046, 1, 255, Batch},
		{6, 1317, 4, 36, Batch},
		{7, 1513, 2, 106, Interactive},
		{8, 1544, 6, 3, Interactive},
	}
	for i, g := range want {
		j := w.Jobs[i]
		if j.Number != g.number || j.SubmitSeconds != g.submit || j.Procs != g.procs || j.RunSeconds != g.run ||
			j.RequestedSeconds != g.run || j.User != 1 || classes[i] != g.class {
			t.Errorf("job %d: got %+v (%s), want %+v", i, j, classes[i], g)
		}
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestTsafrirGolden pins the estimates of the first jobs of one seed.
func TestTsafrirGolden(t *testing.T) {
	w, _, err := Lublin(DefaultParams(), 128, 1000, [2]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := Tsafrir(w.Jobs, DefaultEstimateParams(), [2]uint64{3, 4}); err != nil {
		t.Fatal(err)
	}
	want := [][2]int64{{9, 28800}, {52, 900}, {23, 8160}, {6, 32400}, {255, 1800}, {36, 1800}, {106, 36000}, {3, 600}}
	for i, g := range want {
		if j := w.Jobs[i]; j.RunSeconds != g[0] || j.RequestedSeconds != g[1] {
			t.Errorf("job %d: run %d s, estimate %d s; want %d s, %d s", i, j.RunSeconds, j.RequestedSeconds, g[0], g[1])
		}
	}
}

func TestLublinDeterministicAndValid(t *testing.T) {
	p := DefaultParams()
	for _, procs := range []int{1, 2, 100, 128, 256, 1000} {
		a, _, err := Lublin(p, procs, 3000, [2]uint64{7, 8})
		if err != nil {
			t.Fatalf("%d processors: %v", procs, err)
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("%d processors: %v", procs, err)
		}
		b, _, _ := Lublin(p, procs, 3000, [2]uint64{7, 8})
		c, _, _ := Lublin(p, procs, 3000, [2]uint64{7, 9})
		if !slices.Equal(a.Jobs, b.Jobs) {
			t.Errorf("%d processors: the same seed gave different jobs", procs)
		}
		if slices.Equal(a.Jobs, c.Jobs) {
			t.Errorf("%d processors: different seeds gave the same jobs", procs)
		}
	}
}

func TestLublinStartHourAndTypeless(t *testing.T) {
	p := DefaultParams()
	if err := p.SetAll([]string{"start-hour=8", "job-types=false"}); err != nil {
		t.Fatal(err)
	}
	w, classes, err := Lublin(p, 64, 500, [2]uint64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if w.UnixStartSeconds != 8*3600 {
		t.Errorf("UnixStartSeconds %d, want 28800 (second 0 is 08:00)", w.UnixStartSeconds)
	}
	if slices.Contains(classes, Batch) {
		t.Error("job-types=false gave batch jobs; the authors' code makes them all interactive")
	}
	if w, _, err = Lublin(p, 64, 0, [2]uint64{1, 1}); err != nil || len(w.Jobs) != 0 {
		t.Errorf("0 jobs: %v, %d jobs", err, len(w.Jobs))
	}
}

// TestTwoStageUniformCDF checks the two-stage uniform's CDF at its
// breakpoints: F(med) = prob, F(midpoints) = prob/2 and prob +
// (1-prob)/2, F is linear in between (the interactive defaults for 128
// processors: 1, 3, 5.5, 0.705).
func TestTwoStageUniformCDF(t *testing.T) {
	const n = 200_000
	rng := rand.New(rand.NewPCG(1, 1))
	low, med, hi, prob := 1.0, 3.0, 5.5, 0.705
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = twoStageUniform(rng, low, med, hi, prob)
	}
	for _, c := range []struct{ x, cdf float64 }{
		{low, 0}, {2, prob / 2}, {med, prob}, {4.25, prob + (1-prob)/2}, {hi, 1},
	} {
		below := 0
		for _, x := range xs {
			if x <= c.x {
				below++
			}
		}
		if share := float64(below) / n; !within(share, c.cdf, n) {
			t.Errorf("F(%v) = %.4f, want %.4f", c.x, share, c.cdf)
		}
	}
}

// TestFirstGammaProb checks the hyper-gamma's mixing probability p =
// pa*size + pb of the published parameters, clamped to [0, 1].
func TestFirstGammaProb(t *testing.T) {
	p := DefaultParams()
	for _, c := range []struct {
		class *ClassParams
		size  int
		want  float64
	}{
		{&p.Batch, 1, 0.6956},                   // -0.003 + 0.6986
		{&p.Batch, 128, 0.3146},                 // -0.384 + 0.6986
		{&p.Interactive, 1, 0.9038},             // -0.0118 + 0.9156
		{&p.Interactive, 32, 0.538},             // -0.3776 + 0.9156
		{&p.Interactive, 128, 0},                // -1.5104 + 0.9156 < 0
		{&ClassParams{PA: 0.1, PB: 0.95}, 4, 1}, // 1.35 > 1
	} {
		if got := firstGammaProb(c.class, c.size); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("size %d: p = %v, want %v", c.size, got, c.want)
		}
	}
}

// TestDailyWeights checks the daily cycle: weights average 1 (sum 48);
// with anum = 1 the cycle's gamma is exponential, so consecutive buckets'
// weights are in ratio e^(-1/bnum), bucket i (from cyclic-day-start)
// landing on half hour (i-1) mod 48.
func TestDailyWeights(t *testing.T) {
	p := DefaultParams()
	for _, c := range []ClassParams{p.Batch, p.Interactive, p.Whole} {
		w, err := dailyWeights(c.ANum, c.BNum, 11)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, v := range w {
			sum += v
		}
		if math.Abs(sum-48) > 1e-9 {
			t.Errorf("anum %v, bnum %v: weights sum to %v, want 48", c.ANum, c.BNum, sum)
		}
	}
	w, err := dailyWeights(1, 10, 11)
	if err != nil {
		t.Fatal(err)
	}
	ratio := math.Exp(-0.1)
	for _, pair := range [][2]int{{10, 11}, {46, 47}, {47, 0}, {0, 1}, {8, 9}} { // half hours of buckets i, i+1
		if got := w[pair[1]] / w[pair[0]]; math.Abs(got-ratio) > 1e-9 {
			t.Errorf("w[%d]/w[%d] = %v, want e^-0.1 = %v", pair[1], pair[0], got, ratio)
		}
	}
	if got, want := w[10]/w[9], math.Exp(4.7); math.Abs(got/want-1) > 1e-9 { // buckets 11 and 58: 47 apart
		t.Errorf("w[10]/w[9] = %v, want e^4.7 = %v", got, want)
	}
}

// TestArrivalsPass follows the daily cycle's clock by hand: half hour 0
// has weight 2 (twice the arrival rate), the others 1. 1800 s of
// rush-hour time is one point, half of bucket 0: 900 s of clock. 3600 s
// more is 2 points: the other half of bucket 0 (1 point, 900 s), then
// all of bucket 1 (1 point, 1800 s), so the clock reads 900 + 900 + 1800
// = 3600. In buckets of weight 1 the clock moves as the draws do (1000.7
// s each), dropping each step's fraction of a second as the authors'
// unsigned long does: 4600, then 5600, not 5601.
func TestArrivalsPass(t *testing.T) {
	a := &arrivals{}
	for i := range a.weights {
		a.weights[i] = 1
	}
	a.weights[0] = 2
	for _, step := range []struct {
		rush   float64
		clock  int64
		bucket int
	}{{1800, 900, 0}, {3600, 3600, 1}, {1000.7, 4600, 2}, {1000.7, 5600, 3}} {
		a.pass(step.rush)
		if a.seconds != step.clock || a.bucket != step.bucket {
			t.Errorf("after %v s: clock %d s in half hour %d, want %d s in %d", step.rush, a.seconds, a.bucket, step.clock, step.bucket)
		}
	}
}

// TestGammaCDF checks the incomplete gamma against closed forms on both
// sides of shape+1 (series and continued fraction).
func TestGammaCDF(t *testing.T) {
	for _, x := range []float64{0.1, 0.5, 1, 2, 3.5, 7, 20} {
		for _, c := range []struct {
			shape float64
			want  float64
		}{
			{1, 1 - math.Exp(-x)},
			{2, 1 - (1+x)*math.Exp(-x)},
			{0.5, math.Erf(math.Sqrt(x))},
		} {
			if got := gammaCDF(2*x, c.shape, 2); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("P(%v, %v) = %v, want %v", c.shape, x, got, c.want)
			}
		}
	}
}

// TestGammaRandMoments checks the sampler's mean and variance against
// shape*scale and shape*scale^2 over n draws: the mean within 4 standard
// errors sqrt(shape)*scale/sqrt(n), the variance within 4 of its own,
// sqrt((m4 - s^4)/n) with m4 = 3 s^4 (1 + 2/shape) for a gamma.
func TestGammaRandMoments(t *testing.T) {
	const n = 200_000
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ shape, scale float64 }{{0.5, 2}, {3.8351, 0.6605}, {6.3, 0.85}, {639.1, 0.0156}} {
		var s, ss float64
		for range n {
			v := gammaRand(rng, c.shape, c.scale)
			s += v
			ss += v * v
		}
		mean := s / n
		variance := ss/n - mean*mean
		wantMean, wantVar := c.shape*c.scale, c.shape*c.scale*c.scale
		if math.Abs(mean-wantMean) > 4*math.Sqrt(wantVar/n) {
			t.Errorf("Gamma(%v, %v): mean %v, want %v", c.shape, c.scale, mean, wantMean)
		}
		m4 := 3 * wantVar * wantVar * (1 + 2/c.shape)
		if math.Abs(variance-wantVar) > 4*math.Sqrt((m4-wantVar*wantVar)/n) {
			t.Errorf("Gamma(%v, %v): variance %v, want %v", c.shape, c.scale, variance, wantVar)
		}
	}
}

// TestJobSizeRounding checks power-of-two rounding and the machine's
// bound: with pow2-prob 1 every size is a power of two (2^round(x)); on
// a machine that is not a power of two none exceeds it.
func TestJobSizeRounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pow2 := ClassParams{Pow2Prob: 1, ULow: 0.8, UMed: 4.5, UHi: math.Log2(100), UProb: 0.5}
	other := pow2
	other.Pow2Prob = 0
	seen := map[int]bool{}
	for range 100_000 {
		s := jobSize(rng, &pow2, 100)
		if bits.OnesCount(uint(s)) != 1 || s > 64 {
			t.Fatalf("power-of-two job of size %d on 100 processors", s)
		}
		seen[s] = true
		if s := jobSize(rng, &other, 100); s < 2 || s > 100 {
			t.Fatalf("job of size %d: want 2..100 (round(2^0.8) = 2)", s)
		}
	}
	// round(x) for x in [0.8, 6.64]: 1..7, so 2, 4, ..., 64 and 128 cut to 64.
	for _, s := range []int{2, 4, 8, 16, 32, 64} {
		if !seen[s] {
			t.Errorf("size %d never drawn", s)
		}
	}
}

// TestClassShares checks the per-class serial share against the class's
// serial-prob, and that jobs of both classes arrive.
func TestClassShares(t *testing.T) {
	w, classes, err := Lublin(DefaultParams(), 128, 100_000, [2]uint64{9, 9})
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	for _, c := range []struct {
		class Class
		prob  float64
	}{{Batch, p.Batch.SerialProb}, {Interactive, p.Interactive.SerialProb}} {
		n, serial := 0, 0
		for i, j := range w.Jobs {
			if classes[i] == c.class {
				n++
				if j.Procs == 1 {
					serial++
				}
			}
		}
		if n < 10_000 {
			t.Fatalf("%s: only %d jobs of 100,000", c.class, n)
		}
		if share := float64(serial) / float64(n); !within(share, c.prob, n) {
			t.Errorf("%s: serial share %.4f over %d jobs, want %.4f", c.class, share, n, c.prob)
		}
	}
}

func TestParamsErrors(t *testing.T) {
	for _, c := range []struct {
		settings []string
		procs    int
		want     []string // substrings of the error; none: no error
	}{
		{[]string{"serial-prob-batch=1.5"}, 128, []string{"serial-prob-batch", "[0, 1]"}},
		{[]string{"a2-interactive=0"}, 128, []string{"a2-interactive", "> 0"}},
		{[]string{"nodes=3"}, 128, []string{"unknown parameter \"nodes\"", "serial-prob-batch"}},
		{[]string{"start-hour=24"}, 128, []string{"start-hour", "0..23"}},
		{[]string{"job-types=maybe"}, 128, []string{"job-types", "true"}},
		{[]string{"uhi-batch"}, 128, []string{"key=value"}},
		{[]string{"uhi-batch=8"}, 128, []string{"uhi-batch", "log2(128 processors)"}},
		{[]string{"uhi-batch=8"}, 256, nil},
		{[]string{"uhi-batch=auto", "umed=auto"}, 128, nil},
		{[]string{"serial-prob=0.5", "pow2-prob=0.6"}, 128, []string{"serial-prob + pow2-prob"}},
		{[]string{"uhi-interactive=5.5", "umed-interactive=3", "ulow-interactive=5"}, 128, []string{"ulow-interactive", "ulow <= umed <= uhi"}},
		{nil, 0, []string{"processors 0"}},
	} {
		p := DefaultParams()
		err := p.SetAll(c.settings)
		if err == nil {
			_, _, err = Lublin(p, c.procs, 10, [2]uint64{})
		}
		if (err == nil) != (c.want == nil) {
			t.Errorf("%v on %d: error %v, want one containing %q", c.settings, c.procs, err, c.want)
			continue
		}
		for _, s := range c.want {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%v: error %q does not name %q", c.settings, err, s)
			}
		}
	}
}

func TestParamsCanonicalRoundTrip(t *testing.T) {
	p := DefaultParams()
	q := DefaultParams()
	var settings []string
	for _, field := range strings.Fields(p.Canonical())[1:] {
		settings = append(settings, field)
	}
	if err := q.SetAll(settings); err != nil {
		t.Fatal(err)
	}
	if q != p {
		t.Error("setting every parameter to its canonical value changed the parameters")
	}
	if err := q.Set("pa-batch", "-0.004"); err != nil || q.Canonical() == p.Canonical() {
		t.Errorf("changing pa-batch: %v; canonical form unchanged", err)
	}
}

// TestHeadTimes checks the 20 most popular estimates for a 10-hour
// maximum, worked by hand from the paper's rule: the maximum, the 12
// joint values below it, then multiples of 1 h (9 h, 7 h) and of 20 min
// counting down from 10 h (9:40, 9:20, 8:40, 8:20, 7:40).
func TestHeadTimes(t *testing.T) {
	want := []int64{36000, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 21600,
		25200, 27600, 28800, 30000, 31200, 32400, 33600, 34800}
	if got := headTimes(36000); !slices.Equal(got, want) {
		t.Errorf("head times %v, want %v", got, want)
	}
}

// TestBinCount checks K against the authors' table: 90 at 10,000 jobs, 35
// + round(4000 * 55/9000) = 59 at 5,000, 565 beyond 250,000, and the power
// model round(0.653566 * 10000^0.547761) = round(101.47) = 101.
func TestBinCount(t *testing.T) {
	linear, power := DefaultEstimateParams(), DefaultEstimateParams()
	power.BinsModel = "power"
	for _, c := range []struct {
		p    *EstimateParams
		n    int
		want int
	}{{&linear, 1, 1}, {&linear, 200, 20}, {&linear, 5000, 59}, {&linear, 10000, 90}, {&linear, 300000, 565}, {&power, 10000, 101}} {
		if got := binCount(c.n, c.p); got != c.want {
			t.Errorf("%s, %d jobs: %d bins, want %d", c.p.BinsModel, c.n, got, c.want)
		}
	}
}

// TestEstimateHistogram checks the histogram for 10,000 jobs: 90 values
// summing to 10,000 jobs, the maximum the most popular with rank 1's share
// 89 - sum(14.0491 e^(-0.177531 r) + 0.462513, r = 2..20) = 21.76%.
func TestEstimateHistogram(t *testing.T) {
	p := DefaultEstimateParams()
	rest := 89.0
	for r := 2; r <= 20; r++ {
		rest -= 14.0491*math.Exp(-0.177531*float64(r)) + 0.462513
	}
	for seed := range uint64(5) {
		hist, err := estimateHistogram(10000, &p, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatal(err)
		}
		total, maxJobs := 0, 0
		for _, b := range hist {
			total += b.jobs
			if b.jobs > maxJobs {
				maxJobs = b.jobs
			}
		}
		last := hist[len(hist)-1]
		if len(hist) != 90 || total != 10000 || last.seconds != 36000 || last.jobs != maxJobs {
			t.Errorf("seed %d: %d values, %d jobs, largest %d s with %d jobs (most popular %d)", seed, len(hist), total, last.seconds, last.jobs, maxJobs)
		}
		if share := float64(last.jobs) / 100; math.Abs(share-rest) > 0.05 {
			t.Errorf("seed %d: maximum holds %.2f%% of jobs, want %.2f%%", seed, share, rest)
		}
	}
}

func TestTsafrirAssignsAtLeastRun(t *testing.T) {
	w, _, err := Lublin(DefaultParams(), 128, 5000, [2]uint64{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultEstimateParams()
	if err := Tsafrir(w.Jobs, p, [2]uint64{4, 4}); err != nil {
		t.Fatal(err)
	}
	for _, j := range w.Jobs {
		if j.RequestedSeconds < j.RunSeconds || j.RequestedSeconds > p.MaxEstimateSeconds || j.RunSeconds > p.MaxEstimateSeconds {
			t.Fatalf("job %d: run %d s, estimate %d s, maximum %d s", j.Number, j.RunSeconds, j.RequestedSeconds, p.MaxEstimateSeconds)
		}
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestTsafrirInfeasible: when most jobs run the maximum, the histogram
// (22% at the maximum) cannot cover them; the jobs stay unchanged.
func TestTsafrirInfeasible(t *testing.T) {
	jobs := make([]workload.Job, 1000)
	for i := range jobs {
		jobs[i] = workload.Job{Number: int64(i + 1), Procs: 1, RunSeconds: 40000, RequestedSeconds: 40000}
	}
	before := slices.Clone(jobs)
	err := Tsafrir(jobs, DefaultEstimateParams(), [2]uint64{1, 1})
	if err == nil || !strings.Contains(err.Error(), "max-estimate") {
		t.Fatalf("error %v, want one naming max-estimate", err)
	}
	if !slices.Equal(jobs, before) {
		t.Error("a failed Tsafrir changed the jobs")
	}
}

func TestEstimateParamsErrors(t *testing.T) {
	for _, c := range []struct{ setting, want string }{
		{"max-estimate=600", "at least 3600"},
		{"bins-model=cubic", "linear or power"},
		{"head-percent=100", "(0, 100)"},
		{"time-shape=0.5", "> 1"},
		{"exact=0.1", "unknown parameter"},
	} {
		p := DefaultEstimateParams()
		err := p.SetAll([]string{c.setting})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.setting, err, c.want)
		}
		if !reflect.DeepEqual(p, DefaultEstimateParams()) {
			t.Errorf("%s: a refused setting changed the parameters", c.setting)
		}
	}
	p, q := DefaultEstimateParams(), EstimateParams{}
	if err := q.SetAll(strings.Fields(p.Canonical())[1:]); err != nil || !reflect.DeepEqual(q, p) {
		t.Errorf("setting every parameter to its canonical value: %v, %+v", err, q)
	}
	if err := p.SetAll([]string{"max-estimate=64800", "bins=120"}); err != nil || p.MaxEstimateSeconds != 64800 || p.Bins != 120 {
		t.Errorf("valid settings: %v, %+v", err, p)
	}
}

func BenchmarkLublin10000(b *testing.B) {
	p := DefaultParams()
	for i := range b.N {
		if _, _, err := Lublin(p, 128, 10_000, [2]uint64{uint64(i), 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTsafrir10000(b *testing.B) {
	w, _, err := Lublin(DefaultParams(), 128, 10_000, [2]uint64{1, 1})
	if err != nil {
		b.Fatal(err)
	}
	p := DefaultEstimateParams()
	jobs := slices.Clone(w.Jobs)
	b.ResetTimer()
	for i := range b.N {
		copy(jobs, w.Jobs)
		if err := Tsafrir(jobs, p, [2]uint64{uint64(i), 1}); err != nil {
			b.Fatal(err)
		}
	}
}
