package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/report"
	"github.com/sweep-sched/sweep/report/gantt"
)

// runReport implements `sweep report DIR`: it analyses the run (as `sweep
// analyze` does, without writing Parquet) and writes DIR/report/index.html.
func (a *app) runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flags := addAnalysisFlags(fs)
	gantts := fs.Bool("gantt", true, "draw each policy's worst cell (largest worst-case SLR) as a Gantt chart, simulating it again, and link it from the report")
	ganttFull := fs.Bool("gantt-full", false, "draw each worst cell's whole schedule (up to 20,000 bars, several MB) rather than the window around its worst job's life")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep report DIR [--reference pslr] [--alpha 0.05] [--base TICKS] [--adjust holm] [--gantt=false] [--gantt-full] [--partial] [--out DIR2]")
		fs.PrintDefaults()
	}
	dir, err := parseDirArgs(fs, args)
	if err != nil {
		return err
	}
	stop, err := flags.profile("sweep report")
	if err != nil {
		return err
	}
	defer stop()
	run, err := a.analyzeModels(ctx, "sweep report", dir, flags, stderr)
	if err != nil {
		return err
	}
	if *gantts {
		run.Gantts = func(ctx context.Context, worst []report.GanttCell) ([]report.GanttLink, error) {
			return worstGantts(ctx, a.models, dir, flags.outDir(dir), worst, *ganttFull, stderr)
		}
	}
	// One page per section: a mixed run (seed 003's months beside rigid
	// cells at loads, say) has its first in index.html and the others in
	// index-2.html and on, each with the claims.
	sections := run.Sections()
	claims, err := runClaims(run)
	if err != nil {
		return err
	}
	for i, s := range sections {
		file := report.IndexFile
		if i > 0 {
			file = fmt.Sprintf("index-%d.html", i+1)
		}
		path, err := s.Page(ctx, claims, file)
		if err != nil {
			return fmt.Errorf("sweep report: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return nil
}

// fullGanttBars bounds the bars of a whole-schedule chart (--gantt-full).
const fullGanttBars = 20000

// worstGantts simulates each policy's worst cell (as the run's study
// picked it) of the results directory dir again, checks it against its stored row,
// and draws it as OUT/report/gantt-<policy>.svg (out is dir unless --out): by default the window
// around the life of the cell's worst job (largest SLR), that job in red
// among the others in grey; with full, the whole schedule. A directory whose
// manifest cannot be loaded again (a trace moved since the run) gets no
// charts, with a note.
func worstGantts(ctx context.Context, models *model.Registry, dir, outDir string, worst []report.GanttCell, full bool, note io.Writer) ([]report.GanttLink, error) {
	m, err := (&app{models: models}).runManifest(dir, "")
	if err != nil {
		fmt.Fprintf(note, "sweep report: no Gantt charts: %v\n", err)
		return nil, nil
	}
	p := &replayer{cmd: "report", dir: dir, m: m}
	if err := os.MkdirAll(filepath.Join(outDir, report.Dir), 0o755); err != nil {
		return nil, err
	}
	// The worst cells are simulated again and drawn at once; their links
	// and notes keep the order of worst.
	links := make([]*report.GanttLink, len(worst))
	notes := make([]bytes.Buffer, len(worst))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, w := range worst {
		g.Go(func() error {
			cell, replayed, _, err := p.replay(ctx, w.CellID)
			if err != nil {
				return err
			}
			charted, ok := replayed.Outcome.(model.Charted)
			if !ok {
				return nil
			}
			file := "gantt-" + w.Policy + ".svg"
			schedule := charted.Gantt()
			title := fmt.Sprintf("worst cell of %s: %s (%s %.4g)", w.Policy, cell.Name(), w.Measure, w.Value)
			opts := gantt.Options{Title: title, TicksPerHour: w.TicksPerHour, MaxBars: fullGanttBars}
			if !full {
				job, slr := gantt.WorstJob(schedule)
				from, to := gantt.JobWindow(schedule, job)
				opts = gantt.Options{Title: title + fmt.Sprintf(", around its worst job %s (%s %.4g)", schedule.Jobs[job].ID, gantt.RatioName(schedule), slr),
					TicksPerHour: w.TicksPerHour, Focus: true, FocusJob: job, FromTick: from, ToTick: to}
			}
			if err := writeGantt(filepath.Join(outDir, report.Dir, file), schedule, opts, &notes[i]); err != nil {
				return err
			}
			links[i] = &report.GanttLink{Policy: w.Policy, Cell: cell.ID, Name: cell.Name(), Value: w.Value, File: file}
			return nil
		})
	}
	err = g.Wait()
	var out []report.GanttLink
	for i, l := range links {
		note.Write(notes[i].Bytes())
		if l != nil {
			out = append(out, *l)
		}
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
