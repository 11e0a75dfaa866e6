package moldable

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func params(t *testing.T, preset string, settings ...string) Params {
	t.Helper()
	p, err := Lookup(PresetPrefix + preset)
	if err != nil {
		t.Fatal(err)
	}
	params := p.Defaults()
	if err := params.SetAll(settings); err != nil {
		t.Fatal(err)
	}
	return params
}

func TestGenerateDeterministic(t *testing.T) {
	for _, name := range Presets() {
		p := params(t, strings.TrimPrefix(name, PresetPrefix), "tasks=30", "processors=50")
		a, err := Generate(p, 7, 3)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(p, 7, 3)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two generations of instance 3 differ", name)
		}
		c, _ := Generate(p, 7, 4)
		if reflect.DeepEqual(a.Tasks[0], c.Tasks[0]) {
			t.Errorf("%s: instances 3 and 4 share their first task", name)
		}
		if a.Processors != 50 || len(a.Tasks) != 30 || len(a.Tasks[0].Times) != 50 {
			t.Errorf("%s: %d processors, %d tasks, %d times", name, a.Processors, len(a.Tasks), len(a.Tasks[0].Times))
		}
	}
}

// TestRecurrenceX recovers X from p(2) = p(1) (2 - X) / 2 over 20,000
// tasks: its mean is that of N(mu, 0.2) truncated to [0, 1], from scipy
// 1.10 (truncnorm.mean(-mu/0.2, (1-mu)/0.2, loc=mu, scale=0.2)):
// 0.20182796395489763 for mu = 0.1, 0.7981720360451023 for mu = 0.9
// (standard deviation 0.1394, so the standard error is 0.001).
func TestRecurrenceX(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   float64
	}{{"uniform-weak", 0.20182796395489763}, {"uniform-high", 0.7981720360451023}} {
		w, err := Generate(params(t, c.preset, "tasks=20000", "processors=2"), 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		sum, seq, weight := 0.0, 0.0, 0.0
		for _, task := range w.Tasks {
			sum += 2 - 2*task.Times[1]/task.Times[0]
			seq += task.Times[0]
			weight += task.Weight
		}
		n := float64(len(w.Tasks))
		if got := sum / n; math.Abs(got-c.want) > 0.005 {
			t.Errorf("%s: mean X %v, want %v", c.preset, got, c.want)
		}
		// U[1, 10]: mean 5.5, standard error 2.6/sqrt(20000) = 0.018.
		if got := seq / n; math.Abs(got-5.5) > 0.1 {
			t.Errorf("%s: mean p(1) %v, want 5.5", c.preset, got)
		}
		if got := weight / n; math.Abs(got-5.5) > 0.1 {
			t.Errorf("%s: mean weight %v, want 5.5", c.preset, got)
		}
	}
}

// TestMixedSequential: p(1) is 70% N(1, 0.5) and 30% N(10, 5), each
// redrawn while <= 0. scipy 1.10 truncnorm means 1.027623931339495 and
// 10.27623931339495, so the mixture's mean is 3.8105 (sd about 5, standard
// error 0.035 over 20,000 tasks).
func TestMixedSequential(t *testing.T) {
	w, err := Generate(params(t, "mixed", "tasks=20000", "processors=4"), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, task := range w.Tasks {
		sum += task.Times[0]
	}
	want := 0.7*1.027623931339495 + 0.3*10.27623931339495
	if got := sum / float64(len(w.Tasks)); math.Abs(got-want) > 0.15 {
		t.Errorf("mean p(1) %v, want %v", got, want)
	}
}

// TestDowneySpeedup checks Downey's model against values computed by hand
// from its formulas.
func TestDowneySpeedup(t *testing.T) {
	for _, c := range []struct{ k, a, sigma, want float64 }{
		{1, 4, 0.5, 1},
		{2, 4, 0.5, 8 / 4.25},  // A k / (A + sigma/2 (k-1))
		{4, 4, 0.5, 16 / 4.75}, // both low-variance pieces meet at k = A
		{5, 4, 0.5, 20 / 5.5},  // A k / (sigma (A - 1/2) + k (1 - sigma/2))
		{8, 4, 0.5, 4},         // k >= 2A - 1
		{1, 4, 2, 1},           //
		{2, 4, 2, 24.0 / 14},   // k A (sigma+1) / (sigma (k + A - 1) + A)
		{10, 4, 2, 4},          // k = A + A sigma - sigma
		{11, 4, 2, 4},          //
		{3, 1, 0, 1},           // A = 1: no speedup
	} {
		if got := downeySpeedup(c.k, c.a, c.sigma); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("S(%v; A %v, sigma %v) = %v, want %v", c.k, c.a, c.sigma, got, c.want)
		}
	}
}

func TestParamsErrors(t *testing.T) {
	p := params(t, "uniform-weak")
	for _, c := range []struct{ setting, want string }{
		{"bogus=1", `unknown parameter "bogus"`},
		{"tasks=0", "tasks=\"0\": want an integer in 1..1000000"},
		{"parallelism=linear", "want one of weak, high, mixed, cirne-berman"},
		{"noequals", "want key=value"},
		{"tasks=2.5e1", "want an integer"},
	} {
		if err := p.SetAll([]string{c.setting}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.setting, err, c.want)
		}
	}
	bad := params(t, "uniform-weak", "parallelism=mixed")
	if _, err := Generate(bad, 1, 0); err == nil || !strings.Contains(err.Error(), "needs sequential=mixed") {
		t.Errorf("parallelism=mixed with uniform sequential times: %v", err)
	}
	if _, err := Lookup("dutot2004/nope"); err == nil {
		t.Error("Lookup accepted an unknown preset")
	}
	a := params(t, "mixed", "tasks=25", "weight-max=1e1")
	if v, err := a.Get("weight-max"); err != nil || v != "10" {
		t.Errorf("Get(weight-max) = %q, %v; want the canonical 10", v, err)
	}
	if _, err := a.Get("bogus"); err == nil {
		t.Error("Get(bogus) succeeded")
	}
	if !strings.HasPrefix(a.Canonical(), "dutot2004/mixed cb-sigma-max=2 high-mean=0.9") {
		t.Errorf("canonical form %q", a.Canonical())
	}
}

func TestCirneBermanWide(t *testing.T) {
	// Exact monotony at m = 200 exercises every piece of both Downey
	// variants.
	w, err := Generate(params(t, "cirne-berman", "tasks=2000"), 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestGenerateValid: Generate does not validate its workloads, so every
// preset must produce valid ones (positive finite weights and times,
// exactly monotone), also with X drawn once per task, extreme means and
// spreads, and a single processor.
func TestGenerateValid(t *testing.T) {
	settings := [][]string{
		{"tasks=300"},
		{"tasks=100", "x-per=task"},
		{"tasks=100", "x-sd=2", "weak-mean=-1", "high-mean=2"},
		{"tasks=100", "x-sd=0", "weak-mean=0", "high-mean=1"},
		{"tasks=100", "small-sd=5", "large-sd=50", "seq-max=1000"},
		{"tasks=50", "processors=1"},
		{"tasks=50", "processors=1000", "cb-sigma-max=10"},
	}
	for _, name := range Presets() {
		for _, set := range settings {
			p := params(t, strings.TrimPrefix(name, PresetPrefix), set...)
			if p.Validate() != nil {
				continue // a setting this preset refuses
			}
			for instance := range 3 {
				w, err := Generate(p, 2004, instance)
				if err != nil {
					t.Fatalf("%s %v instance %d: %v", name, set, instance, err)
				}
				if err := w.Validate(); err != nil {
					t.Errorf("%s %v instance %d: %v", name, set, instance, err)
				}
			}
		}
	}
}

// BenchmarkGenerate400 generates one instance of each preset at the
// paper's largest size (n = 400, m = 200).
func BenchmarkGenerate400(b *testing.B) {
	for _, name := range Presets() {
		p, err := Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		params := p.Defaults()
		if err := params.Set("tasks", "400"); err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimPrefix(name, PresetPrefix), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(params, 2004, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
