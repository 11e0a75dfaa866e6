package rigid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The authors' code's figures over 10 instances of 10,000 jobs on 128
// processors, default parameters: mean and standard deviation between
// instances. The reference is the PyPI package parallelworkloads 0.1.3
// (sdist; the same files as github.com/renatolfc/parallelworkloads tag
// v0.1.3): parallelworkloads/m_lublin99.c (Lublin and Feitelson) and
// parallelworkloads/est_model.cc (Tsafrir, Etsion and Feitelson), built
// outside the repository with a small driver that seeds srand48 (and, for
// est_model.cc, srand) with i and prints SWF; produced by
//
//	gcc -O2 -fgnu89-inline -o lub lub.c -lm      # lub.c: #include "m_lublin99.c", main(seed, jobs)
//	g++ -O2 -std=c++14 -o est est.cc             # est.cc: #include "est_model.cc", EstParams_t(n, 36000)
//	for i in 1..10: ./lub $i 10000 > out/lublin-$i.swf; ./est $i 36000 < out/lublin-$i.swf > out/tsafrir-$i.swf
//	SWEEP_LUBLIN_REF=$PWD/out go test -run TestPrintReference -v ./gen/rigid
//
// (docs/lublin.md has the drivers' full description.)
var referenceLublin = []spread{
	{"batch share", 0.1627, 0.0131},
	{"serial share", 0.1766, 0.003402},
	{"power-of-two share (size >= 2)", 0.68831, 0.003556},
	{"size q10", 1, 0},
	{"size q25", 2, 0},
	{"size q50", 4, 0},
	{"size q75", 8, 0},
	{"size q90", 30.9, 2.132},
	{"run s q10", 3, 0},
	{"run s q25", 6, 0},
	{"run s q50", 18.5, 0.7071},
	{"run s q75", 96.7, 5.908},
	{"run s q90", 1158.2, 234.7},
	{"inter-arrival s q10", 7, 0},
	{"inter-arrival s q25", 17, 0.6667},
	{"inter-arrival s q50", 51.6, 1.506},
	{"inter-arrival s q75", 187.6, 6.168},
	{"inter-arrival s q90", 672.8, 29.87},
	{"Pearson r of ln size, ln run", 0.120913, 0.01224},
	{"arrivals 00 h share", 0.01957, 0.003386},
	{"arrivals 01 h share", 0.01543, 0.002448},
	{"arrivals 02 h share", 0.01236, 0.002488},
	{"arrivals 03 h share", 0.00948, 0.002371},
	{"arrivals 04 h share", 0.00716, 0.001434},
	{"arrivals 05 h share", 0.0112, 0.00225},
	{"arrivals 06 h share", 0.01866, 0.001888},
	{"arrivals 07 h share", 0.03054, 0.004024},
	{"arrivals 08 h share", 0.04121, 0.00607},
	{"arrivals 09 h share", 0.0507, 0.006976},
	{"arrivals 10 h share", 0.06087, 0.00574},
	{"arrivals 11 h share", 0.06953, 0.006442},
	{"arrivals 12 h share", 0.07048, 0.007025},
	{"arrivals 13 h share", 0.07664, 0.008403},
	{"arrivals 14 h share", 0.07258, 0.00801},
	{"arrivals 15 h share", 0.07827, 0.009934},
	{"arrivals 16 h share", 0.0709, 0.009451},
	{"arrivals 17 h share", 0.05926, 0.008341},
	{"arrivals 18 h share", 0.05537, 0.007773},
	{"arrivals 19 h share", 0.04698, 0.005379},
	{"arrivals 20 h share", 0.04146, 0.006423},
	{"arrivals 21 h share", 0.03487, 0.005031},
	{"arrivals 22 h share", 0.02494, 0.003869},
	{"arrivals 23 h share", 0.02154, 0.003098},
}

var referenceTsafrir = []spread{
	{"estimate/run q10", 3.5609, 0.6048},
	{"estimate/run q25", 30.2532, 5.066},
	{"estimate/run q50", 222.986, 49.88},
	{"estimate/run q75", 1484.69, 249.7},
	{"estimate/run q90", 5137.14, 224.5},
	{"exact estimates share", 0.00774, 0.001125},
	{"top-10 estimates share", 0.7419, 1.17e-16},
	{"distinct estimates", 90, 0},
}

// TestAgainstReference checks that our generator's figures, over the same
// number of instances, agree with the authors' code's: each mean within
// three standard errors of the difference of two means of 10 instances,
// 3 sqrt((sd_ours^2 + sd_theirs^2) / 10), sd the spread between seeds,
// plus 1e-5 relative (the constants are recorded to 6 significant
// digits). A correct generator misses one figure's bound with probability
// about 0.3% (normal means); the seeds are fixed, so the test is
// deterministic.
func TestAgainstReference(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 10 instances of 10,000 jobs")
	}
	lub, tsa := ourInstances(t)
	for _, c := range []struct {
		model        string
		ours, theirs []spread
	}{{LublinName, spreads(lub), referenceLublin}, {TsafrirName, spreads(tsa), referenceTsafrir}} {
		if len(c.ours) != len(c.theirs) {
			t.Fatalf("%s: %d figures, reference has %d", c.model, len(c.ours), len(c.theirs))
		}
		for k, o := range c.ours {
			r := c.theirs[k]
			if o.name != r.name {
				t.Fatalf("%s: figure %d is %q, reference has %q", c.model, k, o.name, r.name)
			}
			tol := 3*math.Sqrt((o.sd*o.sd+r.sd*r.sd)/referenceInstances) + 1e-5*math.Abs(r.mean)
			if math.Abs(o.mean-r.mean) > tol {
				t.Errorf("%s: %s: ours %.5g ± %.3g, the authors' code %.5g ± %.3g: differ by more than %.3g",
					c.model, o.name, o.mean, o.sd, r.mean, r.sd, tol)
			}
		}
	}
}

// The authors' estimate histogram for 10,000 jobs and a 10-hour maximum,
// its job counts largest first: they do not depend on the seed (only which
// value gets which count does). From est_model.cc (parallelworkloads
// 0.1.3) by a driver that calls est_gen_dist(EstParams_t(10000, 36000,
// bins)) and prints each bin's time and njobs:
//
//	./estb 1 36000 10000 | awk '{print $2}' | sort -n -r
//	./estb 1 36000 10000 3600:3000 36000:4000 5400:250 | awk '{print $2}' | sort -n -r
var (
	referenceCounts = []int{2172, 1031, 871, 737, 625, 530, 452, 386, 331, 284, 246, 213, 186, 163, 144, 128,
		115, 104, 94, 87, 76, 68, 62, 56, 51, 47, 43, 40, 37, 34, 31, 29, 27, 25, 24, 22, 21, 20, 19, 18, 17, 16,
		15, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 9, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 4,
		4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3}
	referencePopularCounts = []int{4000, 3000, 267, 250, 227, 192, 163, 139, 119, 87, 76, 76, 68, 66, 62, 57, 56,
		51, 50, 47, 44, 43, 40, 39, 37, 35, 34, 32, 31, 29, 29, 27, 27, 25, 24, 22, 21, 20, 19, 18, 17, 16, 15, 14,
		13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 9, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4,
		4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3}
)

// TestHistogramCountsAgainstReference checks our histogram's counts,
// largest first, against the authors' code's, without and with popular
// values (1 h: 30%, 10 h: 40%, 1.5 h: 2.5%): head and tail shares,
// rounding and the equalization, job for job.
func TestHistogramCountsAgainstReference(t *testing.T) {
	withPopular := DefaultEstimateParams()
	if err := withPopular.Set("popular", "3600:30,36000:40,5400:2.5"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    EstimateParams
		want []int
	}{{"defaults", DefaultEstimateParams(), referenceCounts}, {"popular values", withPopular, referencePopularCounts}} {
		for seed := range uint64(3) {
			hist, err := estimateHistogram(10000, &c.p, rand.New(rand.NewPCG(seed, 2)))
			if err != nil {
				t.Fatal(err)
			}
			var counts []int
			for _, b := range hist {
				counts = append(counts, b.jobs)
			}
			slices.SortFunc(counts, func(a, b int) int { return b - a })
			if !slices.Equal(counts, c.want) {
				t.Errorf("%s, seed %d: counts %v, the authors' code %v", c.name, seed, counts, c.want)
			}
		}
	}
}

// The authors' daily-cycle weights (m_lublin99.c's weights[2][BUCKETS]
// after init, default parameters), printed with %.10g by a driver that
// calls init and prints weights[ACTIVE] then weights[BATCH]:
//
//	gcc -O2 -fgnu89-inline -o weights weights.c -lm && ./weights
var referenceWeights = map[Class][bucketsPerDay]float64{
	Interactive: {
		0.5135054386, 0.4588142376, 0.4086509845, 0.3628653292, 0.3212669465, 0.283636307, 0.2497340423,
		0.2193089389, 0.1921046332, 0.1678651028, 0.1186938026, 0.1796994235, 0.2575713252, 0.3523519167,
		0.4629811705, 0.5873582389, 0.7224965455, 0.8647444785, 1.010041498, 1.154181386, 1.293059085, 1.422883693,
		1.540346661, 1.642740212, 1.728026023, 1.794858048, 1.842565899, 1.871106709, 1.88099382, 1.873210471,
		1.849115795, 1.810349433, 1.758739744, 1.696219375, 1.624750708, 1.546262688, 1.462599546, 1.375481361,
		1.286475691, 1.196979296, 1.108208625, 1.021197715, 0.9368020755, 0.855707226, 0.7784406443, 0.7053860236,
		0.6367988908, 0.572822796,
	},
	Batch: {
		0.5461586641, 0.5011472382, 0.4589029114, 0.4193917146, 0.3825560445, 0.3483190889, 0.3165888176,
		0.2872615389, 0.2602250369, 0.2353613067, 0.3471544913, 0.4484187555, 0.558983083, 0.6760016496,
		0.7964191193, 0.9171533774, 1.035250185, 1.14800517, 1.253052287, 1.348420484, 1.432562051, 1.504357002,
		1.563098268, 1.608462359, 1.64046988, 1.659439714, 1.665940162, 1.660739652, 1.644759084, 1.619027318,
		1.584640814, 1.54272808, 1.494419172, 1.440820318, 1.382993466, 1.321940443, 1.258591336, 1.19379659,
		1.128322373, 1.062848684, 0.997969738, 0.9341961909, 0.8719587855, 0.8116130616, 0.753444813, 0.697676015,
		0.6444709971, 0.5939426713,
	},
}

// TestDailyWeightsAgainstReference checks our incomplete gamma and bucket
// mapping against the authors' weights, to their printed precision.
func TestDailyWeightsAgainstReference(t *testing.T) {
	p := DefaultParams()
	for class, c := range map[Class]ClassParams{Interactive: p.Interactive, Batch: p.Batch} {
		got, err := dailyWeights(c.ANum, c.BNum, p.CyclicDayStart)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range referenceWeights[class] {
			if math.Abs(got[i]-want) > 1e-9*want {
				t.Errorf("%s: half hour %d: weight %.10g, the authors' code %.10g", class, i, got[i], want)
			}
		}
	}
}
