package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/sweep"
)

// runSlurm implements `sweep slurm M --shards n`.
func (a *app) runSlurm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return a.slurmCommand(ctx, args, stdout, stderr, runSinfo)
}

// sinfoFunc runs sinfo with args and returns its standard output; it
// returns errNoSinfo where sinfo is not installed.
type sinfoFunc func(ctx context.Context, args ...string) (string, error)

var errNoSinfo = fmt.Errorf("sinfo not found")

func runSinfo(ctx context.Context, args ...string) (string, error) {
	path, err := exec.LookPath("sinfo")
	if err != nil {
		return "", errNoSinfo
	}
	out, err := exec.CommandContext(ctx, path, args...).Output()
	return string(out), err
}

func (a *app) slurmCommand(ctx context.Context, args []string, stdout, stderr io.Writer, sinfo sinfoFunc) error {
	fs := flag.NewFlagSet("sweep slurm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sweep slurm M --shards n [--throttle K] [--cpus C] [--time T] [--partition P] [--binary PATH] [--out DIR] [--retry-failed]", manifestNote)
	shards := fs.Int("shards", 0, "number of array tasks (shards)")
	throttle := fs.Int("throttle", 0, "most array tasks running at once (sbatch --array=1-N%K); 0: no limit")
	out := fs.String("out", "", "results directory on the cluster's shared file system (default results/<experiment>)")
	cpus := fs.Int("cpus", 0, "CPUs requested per array task (default: none requested, each task uses what it is given)")
	limit := fs.String("time", "", "wall-time limit per array task, e.g. 04:00:00")
	partition := fs.String("partition", "", "Slurm partition")
	binary := fs.String("binary", "sweep", "path of the sweep binary on the cluster")
	retry := fs.Bool("retry-failed", false, "make every task run again the cells recorded as failed")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	m, err := a.manifestArg(fs, "slurm")
	if err != nil {
		return err
	}
	if *shards < 1 {
		return usageError{fmt.Errorf("sweep slurm: --shards N is required, N >= 1")}
	}
	if *cpus > 0 {
		if w := cpuWarning(ctx, *cpus, *partition, sinfo); w != "" {
			fmt.Fprintln(stderr, "warning:", w)
		}
	}
	err = m.WriteSlurm(stdout, sweep.SlurmOptions{
		Shards: *shards, Throttle: *throttle, Out: *out, CPUsPerTask: *cpus, Time: *limit, Partition: *partition,
		Binary: *binary, ManifestPath: fs.Arg(0), RetryFailed: *retry,
	})
	if err != nil {
		return usageError{fmt.Errorf("sweep slurm: %w", err)}
	}
	return nil
}

// cpuWarning asks sinfo for the CPUs of every node (of the partition, when
// given) and describes the problem when none has cpus: Slurm would keep
// such an array pending forever (reason PartitionConfig). It says nothing
// where sinfo is missing or fails: the script may be written away from the
// cluster.
func cpuWarning(ctx context.Context, cpus int, partition string, sinfo sinfoFunc) string {
	args := []string{"--noheader", "--Node", "--format=%c"}
	where := "on this cluster"
	if partition != "" {
		args = append(args, "--partition="+partition)
		where = "in partition " + partition
	}
	text, err := sinfo(ctx, args...)
	if err != nil {
		return ""
	}
	largest, nodes := 0, 0
	for _, field := range strings.Fields(text) {
		n, err := strconv.Atoi(strings.TrimSuffix(field, "+"))
		if err != nil {
			continue
		}
		nodes++
		largest = max(largest, n)
	}
	switch {
	case nodes == 0:
		return fmt.Sprintf("sinfo lists no node %s; the array would stay pending", where)
	case largest < cpus:
		return fmt.Sprintf("--cpus %d: no node %s has that many CPUs (the largest has %d); the array would stay pending (reason PartitionConfig); use --cpus %d or less, or leave --cpus out",
			cpus, where, largest, largest)
	}
	return ""
}
