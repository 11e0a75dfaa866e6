package sweep

import (
	"fmt"
	"io"
	"strings"
)

// SlurmOptions configures the job-array script of WriteSlurm.
type SlurmOptions struct {
	Shards int
	// Throttle, when positive, is the most array tasks running at once
	// (sbatch's --array=1-N%K).
	Throttle int
	Out      string // results directory; empty: results/<experiment>
	// CPUsPerTask, when positive, is requested per array task. Zero
	// requests nothing, so the script runs on any node and each task
	// takes what the cluster gives it by default (often one CPU).
	CPUsPerTask  int
	Time         string // wall-time limit per array task, e.g. "04:00:00"
	Partition    string
	Binary       string // path of the sweep binary on the cluster
	ManifestPath string
	// RetryFailed makes every task run again its cells recorded failed.
	RetryFailed bool
	ExtraSBATCH []string
}

// WriteSlurm writes an sbatch script that runs the manifest as a job array
// of opts.Shards tasks, task i running `sweep run M --shard i/n` on as many
// cores as Slurm allocated to it. Every task writes its own part files into
// the same results directory; a task that is requeued or rerun resumes,
// skipping the cells it finished, and its exit status is sweep's (1 when a
// cell failed). Submitting the same script again finishes what a cancelled
// or failed array left. The script only submits work: nothing waits for
// the cluster.
func (m *Manifest) WriteSlurm(w io.Writer, opts SlurmOptions) error {
	if opts.Shards < 1 {
		return fmt.Errorf("--shards %d: want >= 1", opts.Shards)
	}
	if opts.Throttle < 0 {
		return fmt.Errorf("--throttle %d: want >= 1, or 0 for no limit", opts.Throttle)
	}
	if opts.CPUsPerTask < 0 {
		return fmt.Errorf("--cpus %d: want >= 1, or 0 to request nothing", opts.CPUsPerTask)
	}
	out := m.OutDir(opts.Out)
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	array := fmt.Sprintf("1-%d", opts.Shards)
	if opts.Throttle > 0 {
		array += fmt.Sprintf("%%%d", opts.Throttle)
	}
	fmt.Fprintf(w, "#!/bin/bash\n")
	fmt.Fprintf(w, "# %s: %d cells in %d shards. Submit with: sbatch THIS_FILE\n", m.Experiment, len(m.Cells()), opts.Shards)
	fmt.Fprintf(w, "# Submitting it again resumes: finished cells are skipped.\n")
	fmt.Fprintf(w, "#SBATCH --job-name=sweep-%s\n", m.Experiment)
	fmt.Fprintf(w, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(w, "#SBATCH --ntasks=1\n")
	if opts.CPUsPerTask > 0 {
		fmt.Fprintf(w, "#SBATCH --cpus-per-task=%d\n", opts.CPUsPerTask)
	}
	if opts.Time != "" {
		fmt.Fprintf(w, "#SBATCH --time=%s\n", opts.Time)
	}
	if opts.Partition != "" {
		fmt.Fprintf(w, "#SBATCH --partition=%s\n", opts.Partition)
	}
	// Slurm opens the logs before the script runs, so they go to the
	// submission directory, which exists; one pair per array task.
	fmt.Fprintf(w, "#SBATCH --output=sweep-%s-%%A_%%a.out\n", m.Experiment)
	fmt.Fprintf(w, "#SBATCH --error=sweep-%s-%%A_%%a.err\n", m.Experiment)
	for _, line := range opts.ExtraSBATCH {
		fmt.Fprintf(w, "#SBATCH %s\n", line)
	}
	fmt.Fprintf(w, "set -euo pipefail\n")
	// SLURM_CPUS_PER_TASK is set only when CPUs were requested;
	// SLURM_CPUS_ON_NODE is what the task got (a whole node where nodes
	// are allocated whole).
	retry := ""
	if opts.RetryFailed {
		retry = " --retry-failed"
	}
	fmt.Fprintf(w, "exec %s run %s --out %s -j \"${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-1}}\" --shard \"${SLURM_ARRAY_TASK_ID}/%d\"%s\n",
		q(opts.Binary), q(opts.ManifestPath), q(out), opts.Shards, retry)
	return nil
}
