package moldable_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/moldabletest"
	"github.com/sweep-sched/sweep/engine/verify"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// The golden examples are a copy of shared/golden/moldable-examples.json:
// exact fractions from the design note's reference implementation.
const goldenPath = "testdata/moldable-examples.json"

type goldenPlacement struct {
	Q     int    `json:"q"`
	Start string `json:"start"`
	End   string `json:"end"`
}

type goldenSchedule struct {
	Cmax  string                     `json:"Cmax"`
	SumWC string                     `json:"SumWC"`
	Tasks map[string]goldenPlacement `json:"tasks"`
}

type goldenItem struct {
	Tasks  []string `json:"tasks"`
	Q      int      `json:"q"`
	Value  string   `json:"value"`
	Length string   `json:"length"`
}

type goldenDEMT struct {
	K       int    `json:"K"`
	Tau0    string `json:"tau0"`
	PMin    string `json:"p_min"`
	Batches []struct {
		Tau        string       `json:"tau"`
		Candidates []string     `json:"candidates"`
		Items      []goldenItem `json:"items"`
		Selected   []goldenItem `json:"selected"`
		Value      string       `json:"value"`
	} `json:"batches"`
	FinalList goldenSchedule      `json:"final_list"`
	Shelf     goldenSchedule      `json:"shelf"`
	Compact   goldenSchedule      `json:"compact"`
	ByOrder   map[string][]string `json:"list_by_batch_order"`
	LPSafe    string              `json:"LP_safe"`
}

type goldenExample struct {
	Name       string     `json:"name"`
	M          int        `json:"m"`
	P          [][]string `json:"p"`
	W          []string   `json:"w"`
	LambdaStar string     `json:"lambda_star"`
	MRT        struct {
		S1    []int          `json:"S1"`
		S2    []int          `json:"S2"`
		Small []int          `json:"small"`
		Allot map[string]int `json:"allot"`
	} `json:"MRT"`
	Baselines map[string]goldenSchedule `json:"baselines"`
	DEMTCmax  goldenDEMT                `json:"DEMT_cest"`
	DEMTPmin  goldenDEMT                `json:"DEMT_pmin"`
}

func loadGolden(t *testing.T) []goldenExample {
	t.Helper()
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	var examples []goldenExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatalf("%s: %v", goldenPath, err)
	}
	return examples
}

func (g goldenExample) workload(t *testing.T) *workload.Workload {
	w := &workload.Workload{Processors: g.M}
	for i, row := range g.P {
		task := workload.Task{Name: fmt.Sprintf("T%d", i), Weight: moldabletest.Rat(t, g.W[i])}
		for _, p := range row {
			task.Times = append(task.Times, moldabletest.Rat(t, p))
		}
		w.Tasks = append(w.Tasks, task)
	}
	return w
}

// taskIndex turns "T3" into 3.
func taskIndex(t *testing.T, name string) int {
	i, err := strconv.Atoi(strings.TrimPrefix(name, "T"))
	if err != nil {
		t.Fatalf("golden task name %q", name)
	}
	return i
}

func taskIndices(t *testing.T, names []string) []int {
	var out []int
	for _, n := range names {
		out = append(out, taskIndex(t, n))
	}
	return out
}

// checkSchedule compares a schedule with a golden one, every task's
// allotment, start and end, C_max and sum w C, and validates it.
func checkSchedule(t *testing.T, what string, w *workload.Workload, got moldable.Schedule, want goldenSchedule) {
	t.Helper()
	if err := verify.Moldable(w, got); err != nil {
		t.Errorf("%s: invalid schedule: %v", what, err)
	}
	for name, p := range want.Tasks {
		g := got.Tasks[taskIndex(t, name)]
		if g.Processors != p.Q || !moldabletest.Near(g.Start, moldabletest.Rat(t, p.Start)) || !moldabletest.Near(g.End, moldabletest.Rat(t, p.End)) {
			t.Errorf("%s: %s on %d processors [%v, %v], want %d [%s, %s]", what, name, g.Processors, g.Start, g.End, p.Q, p.Start, p.End)
		}
	}
	if c := got.Makespan(); !moldabletest.Near(c, moldabletest.Rat(t, want.Cmax)) {
		t.Errorf("%s: C_max %v, want %s", what, c, want.Cmax)
	}
	if s := got.WeightedCompletion(w); !moldabletest.Near(s, moldabletest.Rat(t, want.SumWC)) {
		t.Errorf("%s: sum wC %v, want %s", what, s, want.SumWC)
	}
}

func TestGoldenLambdaAndMRT(t *testing.T) {
	for _, g := range loadGolden(t) {
		w := g.workload(t)
		in, err := moldable.NewInstance(w)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		if !moldabletest.Near(in.LambdaStar, moldabletest.Rat(t, g.LambdaStar)) {
			t.Errorf("%s: lambda* %v, want %s", g.Name, in.LambdaStar, g.LambdaStar)
		}
		shelves := map[moldable.Shelf][]int{}
		for i, s := range in.MRT.Shelf {
			shelves[s] = append(shelves[s], i)
		}
		if !slices.Equal(shelves[moldable.Shelf1], g.MRT.S1) || !slices.Equal(shelves[moldable.Shelf2], g.MRT.S2) ||
			!slices.Equal(shelves[moldable.ShelfSmall], g.MRT.Small) {
			t.Errorf("%s: MRT shelves %v, want S1 %v S2 %v small %v", g.Name, shelves, g.MRT.S1, g.MRT.S2, g.MRT.Small)
		}
		for name, q := range g.MRT.Allot {
			if got := in.MRT.Processors[taskIndex(t, name)]; got != q {
				t.Errorf("%s: MRT allots %s %d processors, want %d", g.Name, name, got, q)
			}
		}
	}
}

func TestGoldenBaselines(t *testing.T) {
	for _, g := range loadGolden(t) {
		w := g.workload(t)
		in, err := moldable.NewInstance(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range moldable.Algorithms()[1:] {
			want, ok := g.Baselines[name]
			if !ok {
				t.Fatalf("%s: no golden %s", g.Name, name)
			}
			got, err := in.Run(name, moldable.DefaultDEMTOptions())
			if err != nil {
				t.Fatal(err)
			}
			checkSchedule(t, g.Name+" "+name, w, got, want)
		}
	}
}

func TestGoldenDEMT(t *testing.T) {
	for _, g := range loadGolden(t) {
		w := g.workload(t)
		in, err := moldable.NewInstance(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			anchor moldable.Anchor
			want   goldenDEMT
		}{{moldable.AnchorCmax, g.DEMTCmax}, {moldable.AnchorPmin, g.DEMTPmin}} {
			what := fmt.Sprintf("%s anchor %s", g.Name, c.anchor)
			sel := in.Select(c.anchor, moldable.TailRepeat)
			if sel.K != c.want.K || !moldabletest.Near(in.PMin, moldabletest.Rat(t, c.want.PMin)) {
				t.Errorf("%s: K %d, p_min %v; want %d, %s", what, sel.K, in.PMin, c.want.K, c.want.PMin)
			}
			if _, taus := moldable.BatchLengths(in.LambdaStar, in.PMin, c.anchor); !moldabletest.Near(taus[0], moldabletest.Rat(t, c.want.Tau0)) {
				t.Errorf("%s: tau0 %v, want %s", what, taus[0], c.want.Tau0)
			}
			if len(sel.Batches) != len(c.want.Batches) {
				t.Fatalf("%s: %d batches, want %d", what, len(sel.Batches), len(c.want.Batches))
			}
			for j, wb := range c.want.Batches {
				b := sel.Batches[j]
				bw := fmt.Sprintf("%s batch %d", what, j)
				if !moldabletest.Near(b.Length, moldabletest.Rat(t, wb.Tau)) {
					t.Errorf("%s: tau %v, want %s", bw, b.Length, wb.Tau)
				}
				if want := taskIndices(t, wb.Candidates); !slices.Equal(b.Candidates, want) {
					t.Errorf("%s: candidates %v, want %v", bw, b.Candidates, want)
				}
				if len(b.Items) != len(wb.Items) {
					t.Fatalf("%s: %d items, want %d", bw, len(b.Items), len(wb.Items))
				}
				for k, wi := range wb.Items {
					it := b.Items[k]
					if !slices.Equal(it.Tasks, taskIndices(t, wi.Tasks)) || it.Processors != wi.Q ||
						!moldabletest.Near(it.Value, moldabletest.Rat(t, wi.Value)) || !moldabletest.Near(it.Length, moldabletest.Rat(t, wi.Length)) {
						t.Errorf("%s: item %d %+v, want %+v", bw, k, it, wi)
					}
				}
				var selected []goldenItem
				value := 0.0
				for _, s := range b.Selected {
					it := b.Items[s]
					var names []string
					for _, i := range it.Tasks {
						names = append(names, fmt.Sprintf("T%d", i))
					}
					selected = append(selected, goldenItem{Tasks: names, Q: it.Processors})
					value += it.Value
				}
				if fmt.Sprint(selected) != fmt.Sprint(wb.Selected) || !moldabletest.Near(value, moldabletest.Rat(t, wb.Value)) {
					t.Errorf("%s: selected %v (value %v), want %v (%s)", bw, selected, value, wb.Selected, wb.Value)
				}
			}
			natural := make([]int, len(sel.Batches))
			for j := range natural {
				natural[j] = j
			}
			checkSchedule(t, what+" shelf", w, sel.Schedule(w, natural, moldable.VariantShelf, moldable.ListOvertake), c.want.Shelf)
			checkSchedule(t, what+" compact", w, sel.Schedule(w, natural, moldable.VariantCompact, moldable.ListOvertake), c.want.Compact)
			for key, want := range c.want.ByOrder {
				var order []int
				for _, f := range strings.Split(strings.Trim(key, "()"), ",") {
					j, err := strconv.Atoi(strings.TrimSpace(f))
					if err != nil {
						t.Fatalf("%s: batch order %q", what, key)
					}
					order = append(order, j)
				}
				s := sel.Schedule(w, order, moldable.VariantList, moldable.ListOvertake)
				if err := verify.Moldable(w, s); err != nil {
					t.Errorf("%s order %s: %v", what, key, err)
				}
				if !moldabletest.Near(s.Makespan(), moldabletest.Rat(t, want[0])) || !moldabletest.Near(s.WeightedCompletion(w), moldabletest.Rat(t, want[1])) {
					t.Errorf("%s order %s: C_max %v, sum wC %v; want %s, %s", what, key, s.Makespan(), s.WeightedCompletion(w), want[0], want[1])
				}
			}
			opts := moldable.DefaultDEMTOptions()
			opts.Anchor = c.anchor
			for _, seed := range []uint64{0, 1, 2} {
				opts.Seed = seed
				r, err := in.DEMT(opts)
				if err != nil {
					t.Fatal(err)
				}
				checkSchedule(t, fmt.Sprintf("%s DEMT seed %d", what, seed), w, r.Schedule, c.want.FinalList)
			}
		}
	}
}
