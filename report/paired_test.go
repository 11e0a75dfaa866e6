package report

import (
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/resultstest"
)

// pairedOf analyses the results directory dir as `sweep analyze` does for
// a run without recorded models: the grid part when some cell has a load
// or no cell is a campaign cell, the campaign part when some cell is.
func pairedOf(t *testing.T, dir string, settings analysis.Settings, expect analysis.Expectations) Paired {
	t.Helper()
	measures := analysis.MeasuresOf(resultstest.Models()...)
	measures.PolicyOrder = grid.PolicyOrder()
	r, err := analysis.Analyze(dir, settings, measures)
	if err != nil {
		t.Fatal(err)
	}
	run := Paired{Comparison: r, Expect: expect}
	workloads := campaign.Workloads(r)
	if r.HasLoads() || len(workloads) == 0 {
		if run.Grid, err = grid.Analyze(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	if len(workloads) > 0 {
		if run.Campaign, err = campaign.Analyze(dir, r, expect); err != nil {
			t.Fatal(err)
		}
	}
	return run
}

// expectOf parses the expect section of manifest text.
func expectOf(t *testing.T, text string) analysis.Expectations {
	t.Helper()
	_, expect, err := analysis.ParseManifestSections([]byte(text), "expect")
	if err != nil {
		t.Fatal(err)
	}
	return expect
}
