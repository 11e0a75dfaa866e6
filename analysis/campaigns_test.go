package analysis

import (
	"bytes"
	"math"
	"testing"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"

	"github.com/sweep-sched/sweep/sweep/store"
)

// campaignCell is a row of a hand-made cells table of a campaign run: load
// null, MetricColumns 1 (makespan 10, volume 100), campaigns 10, and the
// campaign columns 1 unless given (NaN for a null).
type campaignCell struct {
	id, workload, policy string
	instance             int64
	failed               bool
	values               map[string]float64
}

func writeCampaignCells(t *testing.T, dir string, cells []campaignCell) {
	t.Helper()
	schema := cellsSchema()
	schema.Columns[5].Nullable = true // load
	for _, c := range mcampaign.CampaignColumns() {
		typ := store.TypeFloat64
		if c.Integer {
			typ = store.TypeInt64
		}
		schema.Columns = append(schema.Columns, store.Column{Name: c.Name, Type: typ, Nullable: true})
	}
	w, err := store.NewPartWriter(dir, schema, store.WriterOptions{Tag: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		status, errText := store.String("ok"), store.Null()
		if c.failed {
			status, errText = store.String("failed"), store.String("simulated failure")
		}
		row := store.Row{
			store.String(c.id), store.String("test"), store.String(c.workload), store.String("gen"),
			store.Int64(c.instance), store.Int64(0), store.Null(), store.String("single:8"), store.String(c.policy),
			store.Int64(7), status, errText, store.Int64(3),
		}
		for _, m := range grid.MetricColumns() {
			switch {
			case c.failed:
				row = append(row, store.Null())
			case m.Name == "makespan":
				row = append(row, store.Int64(10))
			case m.Name == "volume_total":
				row = append(row, store.Int64(100))
			case m.Integer:
				row = append(row, store.Int64(1))
			default:
				row = append(row, store.Float64(1))
			}
		}
		for _, m := range mcampaign.CampaignColumns() {
			v, ok := c.values[m.Name]
			switch {
			case c.failed || ok && math.IsNaN(v):
				row = append(row, store.Null())
			case m.Integer:
				row = append(row, store.Int64(10))
			case ok:
				row = append(row, store.Float64(v))
			default:
				row = append(row, store.Float64(1))
			}
		}
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// campaignRun is a hand-made campaign run:
//
//	synth, instances 0-2: over20 share ostrich 0 0.02 0.04, fcfs 0.4 0.5 (instance 2 failed);
//	  short-user max stretch ostrich 12 13 14, fcfs 60 70;
//	  long-user max stretch ostrich 6.8 6.8 6.8, fcfs null
//	trace, instance 0: trimmed mean ostrich 1.1, log 1.6; user profiles null
func campaignRun() []campaignCell {
	nan := math.NaN()
	cell := func(workload, policy string, instance int64, over20, short, long, trimmed float64) campaignCell {
		return campaignCell{
			id: workload + "-" + policy + "-" + string(rune('0'+instance)), workload: workload, policy: policy, instance: instance,
			values: map[string]float64{
				"campaign_stretch_over20_share": over20, "short_user_max_stretch_mean": short,
				"long_user_max_stretch_mean": long, "campaign_stretch_trimmed_mean": trimmed,
			},
		}
	}
	return []campaignCell{
		cell("synth", "ostrich", 0, 0, 12, 6.8, 1),
		cell("synth", "ostrich", 1, 0.02, 13, 6.8, 1),
		cell("synth", "ostrich", 2, 0.04, 14, 6.8, 1),
		cell("synth", "fcfs", 0, 0.4, 60, nan, 1),
		cell("synth", "fcfs", 1, 0.5, 70, nan, 1),
		{id: "synth-fcfs-2", workload: "synth", policy: "fcfs", instance: 2, failed: true},
		cell("trace", "ostrich", 0, 0.001, nan, nan, 1.1),
		cell("trace", "log", 0, 0.002, nan, nan, 1.6),
	}
}

// campaignExpect are paper values for campaignRun: with the default
// tolerances, fcfs 0.45 matches 0.423 (|0.027| <= 0.0423), ostrich 0.02
// matches 0.013 (|0.007| <= 0.02), 13 matches 12.8 (|0.2| <= 1.28), 6.8
// misses 6.0 (|0.8| > 0.6), 1.6 matches 1.61 and 1.1 matches 1.12; the "*"
// over20 value of ostrich applies to trace too, where 0.001 matches 0.013.
const campaignExpect = `
expect:
  values:
    "*":
      campaign_stretch_over20_share: {fcfs: 0.423, ostrich: 0.013}
    synth:
      short_user_max_stretch_mean: {fcfs: "> 50", ostrich: 12.8}
      long_user_max_stretch_mean: {ostrich: 6.0, fcfs: 6.3}
    trace:
      campaign_stretch_trimmed_mean: {log: 1.61, ostrich: 1.12}
`

func analyzeCampaignRun(t *testing.T) (*Result, Expectations) {
	t.Helper()
	dir := t.TempDir()
	writeCampaignCells(t, dir, campaignRun())
	r, err := Analyze(dir, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := ParseManifestSections([]byte(campaignExpect), "expect")
	if err != nil {
		t.Fatal(err)
	}
	return r, expect
}

func TestFigureTable(t *testing.T) {
	r, expect := analyzeCampaignRun(t)
	if r.Settings.Reference != "ostrich" {
		t.Errorf("reference %q; want ostrich, the campaign default when no cell has pslr", r.Settings.Reference)
	}
	if got := r.CampaignWorkloads(); len(got) != 2 || got[0] != "synth" || got[1] != "trace" {
		t.Errorf("campaign workloads %v; want [synth trace]", got)
	}
	if r.HasLoads() || len(r.Loads) != 1 || r.Loads[0] != 0 {
		t.Errorf("loads %v; want [0], the closed loop, and no load", r.Loads)
	}
	// Half-widths: t(0.975, 2) = 4.302652729749464 times sd / sqrt(3);
	// t(0.975, 1) = 12.706204736174707 times sd / sqrt(2).
	tests := []struct {
		workload, metric, policy string
		n                        int
		mean, half               float64 // half NaN for one instance
		paper                    string  // "" without
		matches                  bool
	}{
		// ostrich 0, 0.02, 0.04: sd 0.02.
		{"synth", "campaign_stretch_over20_share", "ostrich", 3, 0.02, 4.302652729749464 * 0.02 / math.Sqrt(3), "0.013", true},
		// fcfs 0.4, 0.5: sd 0.1/sqrt(2).
		{"synth", "campaign_stretch_over20_share", "fcfs", 2, 0.45, 12.706204736174707 * 0.05, "0.423", true},
		{"synth", "short_user_max_stretch_mean", "ostrich", 3, 13, 4.302652729749464 / math.Sqrt(3), "12.8", true},
		{"synth", "short_user_max_stretch_mean", "fcfs", 2, 65, 12.706204736174707 * 5, "> 50", true},
		{"synth", "long_user_max_stretch_mean", "ostrich", 3, 6.8, 0, "6", false},
		{"synth", "long_user_max_stretch_mean", "fcfs", 0, math.NaN(), math.NaN(), "6.3", false},
		{"trace", "campaign_stretch_over20_share", "ostrich", 1, 0.001, math.NaN(), "0.013", true},
		{"trace", "campaign_stretch_trimmed_mean", "log", 1, 1.6, math.NaN(), "1.61", true},
	}
	for _, tt := range tests {
		var row *FigureRow
		for _, f := range r.FigureTable(tt.workload, expect) {
			if f.Metric == tt.metric && f.Policy == tt.policy {
				row = &f
			}
		}
		if row == nil {
			t.Errorf("%s %s %s: no row", tt.workload, tt.metric, tt.policy)
			continue
		}
		half := (row.High - row.Low) / 2
		close := func(a, b float64) bool {
			return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*max(1, math.Abs(b))
		}
		paper := ""
		if row.Paper != nil {
			paper = row.Paper.String()
		}
		if row.N != tt.n || (tt.n > 0 && !close(row.Mean, tt.mean)) || (tt.n > 0 && !close(half, tt.half)) || paper != tt.paper || row.Matches != tt.matches {
			t.Errorf("%s %s %s: n %d, mean %v ± %v, paper %q, matches %v; want n %d, %v ± %v, %q, %v",
				tt.workload, tt.metric, tt.policy, row.N, row.Mean, half, paper, row.Matches, tt.n, tt.mean, tt.half, tt.paper, tt.matches)
		}
	}
	// The trace has no user profiles: no short-user row without a paper value.
	for _, f := range r.FigureTable("trace", expect) {
		if f.Metric == "short_user_max_stretch_mean" {
			t.Errorf("trace has a short-user row %+v; want none (all null, no paper value)", f)
		}
	}
}

// TestPrintCampaignsGolden prints campaignRun beside campaignExpect; the
// numbers are those of TestFigureTable.
func TestPrintCampaignsGolden(t *testing.T) {
	r, expect := analyzeCampaignRun(t)
	var out bytes.Buffer
	if err := Print(&out, r, expect); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/print_campaigns.golden", out.Bytes())
}
