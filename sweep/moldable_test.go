package sweep

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis/moldable"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

func loadMoldable(t *testing.T) *Manifest { return loadTestManifest(t, "testdata/moldable.yaml") }

// TestMoldableRun runs the small moldable manifest with -j 1 and -j 2:
// identical cells, bit for bit, but for the run times; every ratio >= 1;
// and a DEMT cell equal to DEMT run directly on the regenerated instance.
func TestMoldableRun(t *testing.T) {
	m := loadMoldable(t)
	one, two := t.TempDir(), t.TempDir()
	if s := mustRun(t, m, RunOptions{Out: one, Jobs: 1}); s.Ran != 30 || s.Failed != 0 {
		t.Fatalf("-j 1 ran %d cells, %d failed; want 30, 0", s.Ran, s.Failed)
	}
	mustRun(t, m, RunOptions{Out: two, Jobs: 2})
	cols := []string{table.CellID, table.Workload, table.Instance, table.Policy, table.Status, table.Seed,
		table.MoldableTasks, table.MoldableCmax, table.MoldableSumWC, table.MoldableCmaxBound,
		table.MoldableSumWCBound, table.MoldableCmaxRatio, table.MoldableSumWCRatio}
	read := func(dir string) map[string]string {
		set, problems, err := parquet.ReadColumns(dir, table.Cells, cols)
		if err != nil || len(problems) > 0 {
			t.Fatalf("reading %s: %v %v", dir, err, problems)
		}
		out := map[string]string{}
		for i := range set.Rows {
			var fields []string
			for _, c := range set.Columns {
				switch {
				case c.Strings != nil:
					fields = append(fields, c.Strings[i])
				case c.Int64s != nil:
					fields = append(fields, fmt.Sprint(c.Int64s[i]))
				default:
					fields = append(fields, fmt.Sprintf("%x", math.Float64bits(c.Float64s[i])))
				}
			}
			out[fields[0]] = strings.Join(fields, " ")
		}
		return out
	}
	a, b := read(one), read(two)
	if len(a) != 30 || len(b) != 30 {
		t.Fatalf("%d and %d cells, want 30", len(a), len(b))
	}
	for id, row := range a {
		if b[id] != row {
			t.Errorf("cell %s differs between -j 1 and -j 2:\n%s\n%s", id, row, b[id])
		}
	}
	set, _, err := parquet.ReadColumns(one, table.Cells, cols)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) *parquet.ColumnData { return set.Column(name) }
	checked := false
	for i := range set.Rows {
		if col(table.Status).Strings[i] != table.StatusOK {
			t.Fatalf("cell %s: status %s", col(table.CellID).Strings[i], col(table.Status).Strings[i])
		}
		cr, sr := col(table.MoldableCmaxRatio).Float64s[i], col(table.MoldableSumWCRatio).Float64s[i]
		if cr < 1-1e-12 || sr < 1-1e-9 {
			t.Errorf("cell %s: ratios %v, %v below 1: a bound above a schedule", col(table.CellID).Strings[i], cr, sr)
		}
		if cr != col(table.MoldableCmax).Float64s[i]/col(table.MoldableCmaxBound).Float64s[i] {
			t.Errorf("cell %s: cmax_ratio is not cmax / cmax_bound", col(table.CellID).Strings[i])
		}
		if col(table.Workload).Strings[i] != "high-n12" || col(table.Instance).Int64s[i] != 1 || col(table.Policy).Strings[i] != emoldable.AlgDEMT {
			continue
		}
		// Rebuild the cell by hand: the same instance, lambda*, LP and
		// DEMT with the cell's seed give the same numbers.
		var cell Cell
		for _, c := range m.Cells() {
			if c.ID == col(table.CellID).Strings[i] {
				cell = c
			}
		}
		p, _ := gmoldable.Lookup("dutot2004/uniform-high")
		params := p.Defaults()
		if err := params.SetAll([]string{"tasks=12", "processors=16"}); err != nil {
			t.Fatal(err)
		}
		w, err := gmoldable.Generate(params, 2004, 1)
		if err != nil {
			t.Fatal(err)
		}
		in, err := emoldable.NewInstance(w)
		if err != nil {
			t.Fatal(err)
		}
		opts := emoldable.DefaultDEMTOptions()
		opts.Shuffles, opts.Seed = 3, cell.PolicySeed
		r, err := in.DEMT(opts)
		if err != nil {
			t.Fatal(err)
		}
		lp, err := lpbound.New(w, emoldable.LPBoundaries(in.LambdaStar, in.PMin, emoldable.AnchorCmax))
		if err != nil {
			t.Fatal(err)
		}
		sol, err := lp.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if got := col(table.MoldableCmax).Float64s[i]; got != r.Schedule.Makespan() {
			t.Errorf("DEMT cell C_max %v, direct run %v", got, r.Schedule.Makespan())
		}
		if got := col(table.MoldableSumWCBound).Float64s[i]; got != sol.Value {
			t.Errorf("LP bound %v, direct %v", got, sol.Value)
		}
		if got := col(table.MoldableTasks).Int64s[i]; got != 12 {
			t.Errorf("tasks %d, want 12", got)
		}
		checked = true
	}
	if !checked {
		t.Error("no DEMT cell of high-n12 instance 1")
	}
	// The analysis reads the same table: 2 workloads x 6 algorithms, the
	// average ratio being the sum of values over the sum of bounds.
	r, err := moldable.Analyze(one)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Points) != 12 {
		t.Fatalf("%d points, want 12", len(r.Points))
	}
	var sum, bound float64
	for i := range set.Rows {
		if col(table.Workload).Strings[i] == "cb-n20" && col(table.Policy).Strings[i] == emoldable.AlgListSAF {
			sum += col(table.MoldableSumWC).Float64s[i]
			bound += col(table.MoldableSumWCBound).Float64s[i]
		}
	}
	p, ok := r.Point("dutot2004/cirne-berman", 20, emoldable.AlgListSAF)
	if !ok || p.Instances != 2 || p.SumWC.Average != sum/bound {
		t.Errorf("List-SAF on cirne-berman n=20: %+v, want 2 instances and average %v", p, sum/bound)
	}
}

// TestMoldableManifestErrors: a bad moldable manifest names the line and
// what would be valid.
func TestMoldableManifestErrors(t *testing.T) {
	base := `experiment: x
seed: 1
platform: single:16
workloads:
  - {generator: dutot2004/mixed, instances: 1, set: {tasks: 5, processors: 16}}
policies: [DEMT]
`
	cases := []struct{ edit, want string }{
		{"platform: single:16\n=>platform: single:8\n", "want platform single:16, not single:8"},
		{"policies: [DEMT]\n=>policies: [DEMT, fcfs]\n", `workload "mixed" is a moldable workload, and policy "fcfs" is a campaign policy; moldable workloads take DEMT, Gang`},
		{"policies: [DEMT]\n=>policies: [DEMT]\nloads: [1]\n", "load ratios apply to open-loop workloads (grid, rigid); leave loads out"},
		{"policies: [DEMT]\n=>policies: [DEMT]\nmoldable: {anchor: lambda}\n", `line 7: moldable: DEMT anchor "lambda": want cmax or pmin`},
		{"policies: [DEMT]\n=>policies: [DEMT]\nmoldable: {shuffles: -1}\n", `shuffles "-1": want a count in 1..1000000, or none`},
		{"policies: [DEMT]\n=>policies: [DEMT]\nmoldable: {list: lazy}\n", `list mode "lazy": want overtake or strict`},
		{"set: {tasks: 5, processors: 16}=>set: {tasks: 5, processors: 16, x-per: job}", "want one of processor, task"},
	}
	for _, c := range cases {
		from, to, _ := strings.Cut(c.edit, "=>")
		text := strings.Replace(base, from, to, 1)
		if text == base {
			t.Fatalf("edit %q did not apply", c.edit)
		}
		_, err := ParseManifest([]byte(text), "m.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.edit, err, c.want)
		}
	}
	if _, err := ParseManifest([]byte(base), "m.yaml"); err != nil {
		t.Errorf("valid manifest: %v", err)
	}
}
