package lpbound_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	"github.com/sweep-sched/sweep/engine/moldable/moldabletest"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// goldenPath is engine/moldable's copy of shared/golden/moldable-examples.json.
const goldenPath = "../testdata/moldable-examples.json"

type goldenExample struct {
	Name     string     `json:"name"`
	M        int        `json:"m"`
	P        [][]string `json:"p"`
	W        []string   `json:"w"`
	DEMTCmax struct {
		LPSafe string `json:"LP_safe"`
	} `json:"DEMT_cest"`
	DEMTPmin struct {
		LPSafe string `json:"LP_safe"`
	} `json:"DEMT_pmin"`
}

// problem builds the LP of w over the anchor's boundaries.
func problem(t testing.TB, w *workload.Workload, anchor moldable.Anchor) *lpbound.Problem {
	in, err := moldable.NewInstance(w)
	if err != nil {
		t.Fatal(err)
	}
	p, err := lpbound.New(w, moldable.LPBoundaries(in.LambdaStar, in.PMin, anchor))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGoldenSafeLP(t *testing.T) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	var examples []goldenExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	for _, g := range examples {
		w := &workload.Workload{Processors: g.M}
		for i, row := range g.P {
			task := workload.Task{Weight: moldabletest.Rat(t, g.W[i])}
			for _, p := range row {
				task.Times = append(task.Times, moldabletest.Rat(t, p))
			}
			w.Tasks = append(w.Tasks, task)
		}
		for anchor, want := range map[moldable.Anchor]string{
			moldable.AnchorCmax: g.DEMTCmax.LPSafe,
			moldable.AnchorPmin: g.DEMTPmin.LPSafe,
		} {
			p := problem(t, w, anchor)
			fast, err := p.Solve()
			if err != nil {
				t.Fatalf("%s %s: %v", g.Name, anchor, err)
			}
			if !moldabletest.Near(fast.Value, moldabletest.Rat(t, want)) {
				t.Errorf("%s anchor %s: LP %v, want %s", g.Name, anchor, fast.Value, want)
			}
			if d := p.DualValue(fast); !moldabletest.Near(d, moldabletest.Rat(t, want)) {
				t.Errorf("%s anchor %s: dual value %v, want %s", g.Name, anchor, d, want)
			}
			dense, err := p.SolveDense()
			if err != nil {
				t.Fatalf("%s %s dense: %v", g.Name, anchor, err)
			}
			if err := p.Check(dense, 1e-9); err != nil {
				t.Errorf("%s %s dense: %v", g.Name, anchor, err)
			}
			if !moldabletest.Near(dense.Value, moldabletest.Rat(t, want)) {
				t.Errorf("%s anchor %s: dense LP %v, want %s", g.Name, anchor, dense.Value, want)
			}
		}
	}
}

func TestNewRejects(t *testing.T) {
	w := &workload.Workload{Processors: 1, Tasks: []workload.Task{{Weight: 1, Times: []float64{1}}}}
	for _, b := range [][]float64{nil, {1, 1}, {2, 1}, {0, 1}, {1, math.Inf(1)}} {
		if _, err := lpbound.New(w, b); err == nil {
			t.Errorf("New accepted boundaries %v", b)
		}
	}
}

// TestAreaIsLeastWork: New's areas are the least work of an allotment
// that ends by each boundary (+Inf for none), as the definition says, and
// ForInstance builds the same LP as New over the anchor's boundaries.
func TestAreaIsLeastWork(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 28))
	for trial := range 100 {
		n, m := 1+rng.IntN(30), 1+rng.IntN(40)
		lo := rng.Float64()
		w := moldabletest.RandomWorkload(rng, n, m, lo, lo+(1-lo)*rng.Float64())
		in, err := moldable.NewInstance(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, anchor := range []moldable.Anchor{moldable.AnchorCmax, moldable.AnchorPmin} {
			b := moldable.LPBoundaries(in.LambdaStar, in.PMin, anchor)
			p, err := lpbound.New(w, b)
			if err != nil {
				t.Fatal(err)
			}
			for i, task := range w.Tasks {
				for l := range len(b) - 1 {
					want := math.Inf(1)
					for k := 1; k <= m; k++ {
						if task.Time(k) <= b[l+1] {
							want = min(want, task.Work(k))
						}
					}
					if got := p.Area[i][l]; got != want {
						t.Fatalf("trial %d task %d interval %d: area %v, want %v", trial, i, l, got, want)
					}
				}
			}
			q, err := lpbound.ForInstance(in, anchor)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p, q) {
				t.Errorf("trial %d %s: ForInstance's LP differs from New's", trial, anchor)
			}
		}
	}
}
