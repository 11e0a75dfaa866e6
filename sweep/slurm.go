package sweep

import (
	"fmt"
	"io"
	"strings"
)

// SlurmOptions configures the job-array script of WriteSlurm.
type SlurmOptions struct {
	Shards       int
	Out          string // results directory; empty: results/<experiment>
	CPUsPerTask  int
	Time         string // wall-time limit per array task, e.g. "04:00:00"
	Partition    string
	Binary       string // path of the sweep binary on the cluster
	ManifestPath string
	ExtraSBATCH  []string
}

// WriteSlurm writes an sbatch script that runs the manifest as a job array
// of opts.Shards tasks, task i running `sweep run M --shard i/n`. Every
// task writes its own part files into the same results directory; a task
// that is requeued or rerun resumes, skipping the cells it finished. The
// script only submits work: nothing waits for the cluster.
func (m *Manifest) WriteSlurm(w io.Writer, opts SlurmOptions) error {
	if opts.Shards < 1 {
		return fmt.Errorf("--shards %d: want >= 1", opts.Shards)
	}
	out := m.OutDir(opts.Out)
	cpus := max(opts.CPUsPerTask, 1)
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	fmt.Fprintf(w, "#!/bin/bash\n")
	fmt.Fprintf(w, "# %s: %d cells in %d shards. Submit with: sbatch THIS_FILE\n", m.Experiment, len(m.Cells()), opts.Shards)
	fmt.Fprintf(w, "#SBATCH --job-name=sweep-%s\n", m.Experiment)
	fmt.Fprintf(w, "#SBATCH --array=1-%d\n", opts.Shards)
	fmt.Fprintf(w, "#SBATCH --cpus-per-task=%d\n", cpus)
	fmt.Fprintf(w, "#SBATCH --ntasks=1\n")
	if opts.Time != "" {
		fmt.Fprintf(w, "#SBATCH --time=%s\n", opts.Time)
	}
	if opts.Partition != "" {
		fmt.Fprintf(w, "#SBATCH --partition=%s\n", opts.Partition)
	}
	// Slurm opens the log before the script runs, so it goes to the
	// submission directory, which exists.
	fmt.Fprintf(w, "#SBATCH --output=sweep-%s-%%A_%%a.log\n", m.Experiment)
	for _, line := range opts.ExtraSBATCH {
		fmt.Fprintf(w, "#SBATCH %s\n", line)
	}
	fmt.Fprintf(w, "set -euo pipefail\n")
	fmt.Fprintf(w, "exec %s run %s --out %s -j \"${SLURM_CPUS_PER_TASK:-%d}\" --shard \"${SLURM_ARRAY_TASK_ID}/%d\"\n",
		q(opts.Binary), q(opts.ManifestPath), q(out), cpus, opts.Shards)
	return nil
}
