package resultstest

import (
	"math"
	"testing"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// CampaignCell is a row of a hand-made cells table of a campaign run: load
// null, MetricColumns 1 (makespan 10, volume 100), campaigns 10, and the
// campaign columns 1 unless given (NaN for a null).
type CampaignCell struct {
	ID, Workload, Policy string
	Instance             int64
	Failed               bool
	Values               map[string]float64
}

// WriteCampaignCells writes cells as the cells table of dir, with the
// campaign summary columns.
func WriteCampaignCells(t *testing.T, dir string, cells []CampaignCell) {
	t.Helper()
	schema := CellsSchema()
	schema.Columns[5].Nullable = true // load
	for _, c := range mcampaign.CampaignColumns() {
		typ := store.TypeFloat64
		if c.Integer {
			typ = store.TypeInt64
		}
		schema.Columns = append(schema.Columns, store.Column{Name: c.Name, Type: typ, Nullable: true})
	}
	w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		status, errText := store.String("ok"), store.Null()
		if c.Failed {
			status, errText = store.String("failed"), store.String("simulated failure")
		}
		row := store.Row{
			store.String(c.ID), store.String("test"), store.String(c.Workload), store.String("gen"),
			store.Int64(c.Instance), store.Int64(0), store.Null(), store.String("single:8"), store.String(c.Policy),
			store.Int64(7), status, errText, store.Int64(3),
		}
		for _, m := range grid.MetricColumns() {
			switch {
			case c.Failed:
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
			v, ok := c.Values[m.Name]
			switch {
			case c.Failed || ok && math.IsNaN(v):
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

// CampaignRun is a hand-made campaign run:
//
//	synth, instances 0-2: over20 share ostrich 0 0.02 0.04, fcfs 0.4 0.5 (instance 2 failed);
//	  short-user max stretch ostrich 12 13 14, fcfs 60 70;
//	  long-user max stretch ostrich 6.8 6.8 6.8, fcfs null
//	trace, instance 0: trimmed mean ostrich 1.1, log 1.6; user profiles null
func CampaignRun() []CampaignCell {
	nan := math.NaN()
	cell := func(workload, policy string, instance int64, over20, short, long, trimmed float64) CampaignCell {
		return CampaignCell{
			ID: workload + "-" + policy + "-" + string(rune('0'+instance)), Workload: workload, Policy: policy, Instance: instance,
			Values: map[string]float64{
				"campaign_stretch_over20_share": over20, "short_user_max_stretch_mean": short,
				"long_user_max_stretch_mean": long, "campaign_stretch_trimmed_mean": trimmed,
			},
		}
	}
	return []CampaignCell{
		cell("synth", "ostrich", 0, 0, 12, 6.8, 1),
		cell("synth", "ostrich", 1, 0.02, 13, 6.8, 1),
		cell("synth", "ostrich", 2, 0.04, 14, 6.8, 1),
		cell("synth", "fcfs", 0, 0.4, 60, nan, 1),
		cell("synth", "fcfs", 1, 0.5, 70, nan, 1),
		{ID: "synth-fcfs-2", Workload: "synth", Policy: "fcfs", Instance: 2, Failed: true},
		cell("trace", "ostrich", 0, 0.001, nan, nan, 1.1),
		cell("trace", "log", 0, 0.002, nan, nan, 1.6),
	}
}

// CampaignExpect are paper values for CampaignRun: with the default
// tolerances, fcfs 0.45 matches 0.423 (|0.027| <= 0.0423), ostrich 0.02
// matches 0.013 (|0.007| <= 0.02), 13 matches 12.8 (|0.2| <= 1.28), 6.8
// misses 6.0 (|0.8| > 0.6), 1.6 matches 1.61 and 1.1 matches 1.12; the "*"
// over20 value of ostrich applies to trace too, where 0.001 matches 0.013.
const CampaignExpect = `
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

// CampaignRows is a hand-made campaigns table for the trace cells of
// CampaignRun: users A and B, two campaigns each (user, ordinal, submit,
// completion, stretch).
//
//	        ostrich              log                  flow
//	A #1    0-10,   1            0-12,   1.2          ostrich shorter
//	A #2    20-26,  1.5          20-26,  1.5          equal
//	B #1    5-9,    2            5-8,    1.5          log shorter
//	B #2    30-2030, 2000        30-3030, 3000        ostrich shorter
//
// Flow shorter under ostrich 2/4, equal 1/4, under log 1/4. Medians per
// user: A ostrich (1 + 1.5)/2 = 1.25, log 1.35; B ostrich 1001, log
// 1500.75: ostrich is not worse for 2 of 2 users. The means of the
// stretches <= 1000 (and <= 100, <= 20): ostrich 4.5/3 = 1.5, log 4.2/3 =
// 1.4, difference 0.1; exactly 1: ostrich 1/3, log 0; quantiles of
// {1, 1.5, 2} (ostrich) and {1.2, 1.5, 1.5} (log), type 7: p50 1.5 and
// 1.5, p90 1.9 and 1.5, p99 1.99 and 1.5; above 1000: 1/4 both; flow
// shorter: ostrich 1/2, log 1/4, difference 1/4.
var CampaignRows = []struct {
	Cell, User         string
	Ordinal            int64
	Submit, Completion int64
	Stretch            float64
}{
	{"trace-ostrich-0", "A", 1, 0, 10, 1}, {"trace-ostrich-0", "A", 2, 20, 26, 1.5},
	{"trace-ostrich-0", "B", 1, 5, 9, 2}, {"trace-ostrich-0", "B", 2, 30, 2030, 2000},
	{"trace-log-0", "A", 1, 0, 12, 1.2}, {"trace-log-0", "A", 2, 20, 26, 1.5},
	{"trace-log-0", "B", 1, 5, 8, 1.5}, {"trace-log-0", "B", 2, 30, 3030, 3000},
	{"unknown-cell", "A", 1, 0, 1, 1},
}

// WriteCampaignRows writes CampaignRows as the campaigns table of dir.
func WriteCampaignRows(t *testing.T, dir string) {
	t.Helper()
	w, err := parquet.NewPartWriter(dir, table.CampaignsSchema(), parquet.WriterOptions{Tag: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range CampaignRows {
		if err := w.Append(store.Row{store.String(r.Cell), store.String(r.User), store.String(""), store.Int64(r.Ordinal),
			store.Int64(1), store.Int64(r.Submit), store.Int64(r.Completion), store.Int64(1), store.Float64(r.Stretch)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// OrderingExpect are orderings for CampaignRun with CampaignRows.
const OrderingExpect = `
expect:
  orderings:
    trace:
      campaign_stretch_trimmed_mean: ["ostrich < log", "ostrich >= log"]
    "*":
      campaign_stretch_over20_share: ostrich < fcfs
`
