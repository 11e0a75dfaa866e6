package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/report"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/sweep"
)

// analyzeModels runs the analysis of each model of the results directory
// dir: the models its cells part files record, else (a run written before
// they recorded them) the models whose studies recognize its columns
// (report.Probe). A model with a study (the program's bindings, see Main)
// gets it; a model of the registry without one gets the paired comparison
// of its measures across policies.
func (a *app) analyzeModels(ctx context.Context, name, dir string, flags analysisFlags, note io.Writer) (*report.Run, error) {
	run := &report.Run{Name: name, Dir: dir, Out: *flags.out, Note: note}
	run.Compare = func(measures analysis.Measures) (*analysis.Result, analysis.Expectations, error) {
		return compareRun(name, dir, flags, note, measures, allMeasures(a.models))
	}
	models, recorded, err := analysis.RecordedModels(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := warnUnreadable(name, dir, note); err != nil {
		return nil, err
	}
	if run.Provenance, err = a.runProvenance(dir, *flags.partial); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// A directory without cells is left to the analyses, which say to
	// run first.
	if done, failed, _ := run.Provenance.Totals(); done+failed > 0 && len(run.Provenance.Incomplete()) > 0 && !*flags.partial {
		return nil, unfinishedError(name, dir, run.Provenance)
	}
	var bindings []report.Binding
	var unbound []model.Model // models of the run without a study
	if recorded {
		bindings, unbound = a.bind(run, models)
	} else {
		run.Probed = true
		columns, err := parquet.CommonColumns(dir, table.Cells)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		bindings = report.Probe(a.studies, columns)
	}
	run.Measures = a.pairedMeasures(bindings, unbound)
	for _, b := range bindings {
		if err := b.Study.Analyze(run); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if len(unbound) > 0 {
		if err := report.ComparePaired(run, unbound...); err != nil {
			return nil, err
		}
	}
	if len(run.Sections()) == 0 {
		return nil, usageError{fmt.Errorf("%s: %s records the models %q, none of which has an analysis", name, dir, models)}
	}
	return run, nil
}

// bind returns the bindings of the studies of the models a run recorded,
// in the bindings' order, and the models of the registry among them that
// have no study. A model neither bound nor registered gets a note.
func (a *app) bind(run *report.Run, models []string) ([]report.Binding, []model.Model) {
	var bindings []report.Binding
	for _, b := range a.studies {
		if slices.Contains(models, b.Model) {
			bindings = append(bindings, b)
		}
	}
	var unbound []model.Model
	for _, name := range models {
		if slices.ContainsFunc(bindings, func(b report.Binding) bool { return b.Model == name }) {
			continue
		}
		if m := a.models.Lookup(name); m != nil {
			unbound = append(unbound, m)
			continue
		}
		fmt.Fprintf(run.Note, "%s: no analysis for model %q; its cells are left out\n", run.Name, name)
	}
	return bindings, unbound
}

// pairedMeasures returns what the paired comparison compares: the
// measures of the models whose studies build on it and of the models
// without a study, in registry order, as the paired studies set them.
func (a *app) pairedMeasures(bindings []report.Binding, unbound []model.Model) analysis.Measures {
	var paired []report.PairedStudy
	var models []model.Model
	for _, m := range a.models.Models() {
		i := slices.IndexFunc(bindings, func(b report.Binding) bool { return b.Model == m.Name() })
		if i < 0 {
			if slices.Contains(unbound, m) {
				models = append(models, m)
			}
			continue
		}
		if p, ok := bindings[i].Study.(report.PairedStudy); ok {
			paired = append(paired, p)
			models = append(models, m)
		}
	}
	measures := analysis.MeasuresOf(models...)
	for _, p := range paired {
		p.Pair(&measures)
	}
	return measures
}

// allMeasures are the measures of every model of the registry, which the
// metrics of a manifest's expect section are checked against.
func allMeasures(models *model.Registry) []table.Measure {
	var out []table.Measure
	for _, m := range models.Models() {
		out = append(out, m.Measures()...)
	}
	return out
}

// warnUnreadable tells of the part files of dir that cannot be read (a
// full disk truncated them), whose rows the analysis leaves out and on
// which DuckDB or pyarrow would fail.
func warnUnreadable(name, dir string, note io.Writer) error {
	problems, err := sweep.UnreadableParts(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, p := range problems {
		fmt.Fprintf(note, "%s: warning: unreadable part file %s: %v; its rows are left out (and DuckDB or pyarrow reading the table fail on it): `sweep run` of the manifest moves it aside and runs its cells again\n", name, p.Path, p.Err)
	}
	return nil
}
