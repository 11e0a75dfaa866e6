package sweep

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"

	"github.com/sweep-sched/sweep/engine"
	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// runCell simulates one cell and returns its row and job rows.
func runCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell, before func(Cell)) (row store.Row, children childRows, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	if before != nil {
		before(c)
	}
	if m.sources[c.spec].rigid != nil {
		return runRigidCell(ctx, m, cache, c, start)
	}
	if m.sources[c.spec].moldable != nil {
		row, err := moldableCell(ctx, m, cache, c)
		if err != nil {
			return nil, children, err
		}
		return append(cellHead(m, c, table.StatusOK, "", time.Since(start)), row...), children, nil
	}
	s, campaignRows, err := simulateCell(ctx, m, cache, c)
	if err != nil {
		return nil, children, err
	}
	outcomes := s.Outcomes()
	var makespan int64
	for _, o := range outcomes {
		makespan = max(makespan, o.FinishTick)
	}
	measured, err := grid.MeasureJobs(outcomes)
	if err != nil {
		return nil, children, fmt.Errorf("metrics: %w", err)
	}
	metrics, err := grid.ComputeMetricsOf(outcomes, measured, m.platform[c.Platform].TotalCores(), makespan)
	if err != nil {
		return nil, children, fmt.Errorf("metrics: %w", err)
	}
	row = cellHead(m, c, table.StatusOK, "", time.Since(start))
	for _, col := range grid.MetricColumns() {
		row = append(row, typedValue(col.Integer, func() int64 { return col.Int(&metrics) }, func() float64 { return col.Float(&metrics) }))
	}
	if m.hasCampaigns() {
		var sum *mcampaign.CampaignSummary
		if campaignRows != nil {
			s := mcampaign.SummarizeCampaigns(campaignRows)
			sum = &s
		}
		for _, col := range mcampaign.CampaignColumns() {
			if sum == nil {
				row = append(row, store.Null())
				continue
			}
			row = append(row, typedValue(col.Integer, func() int64 { return col.Int(sum) }, func() float64 { return col.Float(sum) }))
		}
	}
	if m.hasMoldable() {
		row = appendNulls(row, len(table.MoldableMeasures()))
	}
	if m.Record.Campaigns {
		children.campaigns = campaignTableRows(c, campaignRows)
	}
	if m.Record.Jobs {
		children.jobs = jobTableRows(c, outcomes, measured)
	}
	if campaignRows == nil {
		children.deciles = volumeDecileRows(c, grid.VolumeDeciles(outcomes, measured))
	}
	return row, children, nil
}

// simulateCell runs the cell's policy on its workload instance; campaign
// workloads also return their campaigns' measures.
func simulateCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell) (*engine.Schedule, []mcampaign.CampaignRow, error) {
	in, err := cache.instance(c)
	if err != nil {
		return nil, nil, err
	}
	if camp := cache.campaigns(c); camp != nil {
		opts := m.campaignSettings()
		s, err := ecampaign.Simulate(ctx, in, camp, c.Policy, m.sources[c.spec].campaignOptions(opts.schedule))
		if err != nil {
			return nil, nil, err
		}
		rows, err := mcampaign.CampaignRows(camp, s, opts.stretchBase)
		return s, rows, err
	}
	arrivals, err := cache.arrivals(c, in)
	if err != nil {
		return nil, nil, err
	}
	s, err := engine.Simulate(ctx, in, engine.Options{Policy: c.Policy, Seed: c.PolicySeed, Release: engine.OpenLoop(arrivals)})
	return s, nil, err
}
