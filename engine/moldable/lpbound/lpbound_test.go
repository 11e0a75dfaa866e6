package lpbound_test

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
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

func rat(t *testing.T, s string) float64 {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("golden value %q is not a fraction", s)
	}
	f, _ := r.Float64()
	return f
}

func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
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
			task := workload.Task{Weight: rat(t, g.W[i])}
			for _, p := range row {
				task.Times = append(task.Times, rat(t, p))
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
			if !near(fast.Value, rat(t, want)) {
				t.Errorf("%s anchor %s: LP %v, want %s", g.Name, anchor, fast.Value, want)
			}
			if d := p.DualValue(fast); !near(d, rat(t, want)) {
				t.Errorf("%s anchor %s: dual value %v, want %s", g.Name, anchor, d, want)
			}
			dense, err := p.SolveDense()
			if err != nil {
				t.Fatalf("%s %s dense: %v", g.Name, anchor, err)
			}
			if err := p.Check(dense, 1e-9); err != nil {
				t.Errorf("%s %s dense: %v", g.Name, anchor, err)
			}
			if !near(dense.Value, rat(t, want)) {
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
