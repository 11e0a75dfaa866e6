package sweep

import (
	"strings"
	"sync"
	"testing"
)

func TestSlurmScriptOptions(t *testing.T) {
	m := loadSmall(t)
	tests := []struct {
		name    string
		opts    SlurmOptions
		want    []string
		notWant []string
	}{
		{
			name: "default requests no CPUs",
			opts: SlurmOptions{Shards: 4, Binary: "sweep", ManifestPath: "small.yaml"},
			want: []string{"#SBATCH --array=1-4\n", "#SBATCH --ntasks=1\n",
				"#SBATCH --output=sweep-small-%A_%a.out\n", "#SBATCH --error=sweep-small-%A_%a.err\n",
				`exec 'sweep' run 'small.yaml' --out 'results/small' -j "${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-1}}" --shard "${SLURM_ARRAY_TASK_ID}/4"` + "\n"},
			notWant: []string{"--cpus-per-task", "--time", "--partition", "--array=1-4%", "--retry-failed"},
		},
		{
			name: "cpus, throttle, time, partition",
			opts: SlurmOptions{Shards: 100, Throttle: 10, CPUsPerTask: 16, Time: "04:00:00", Partition: "long",
				Binary: "/opt/it's/sweep", ManifestPath: "m.yaml", Out: "/scratch/x", RetryFailed: true},
			want: []string{"#SBATCH --array=1-100%10\n", "#SBATCH --cpus-per-task=16\n", "#SBATCH --time=04:00:00\n",
				"#SBATCH --partition=long\n", `exec '/opt/it'\''s/sweep' run 'm.yaml' --out '/scratch/x'`, `--shard "${SLURM_ARRAY_TASK_ID}/100" --retry-failed` + "\n"},
		},
	}
	for _, tc := range tests {
		var b strings.Builder
		if err := m.WriteSlurm(&b, tc.opts); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, want := range tc.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: script lacks %q:\n%s", tc.name, want, b.String())
			}
		}
		for _, bad := range tc.notWant {
			if strings.Contains(b.String(), bad) {
				t.Errorf("%s: script has %q:\n%s", tc.name, bad, b.String())
			}
		}
	}
}

func TestSlurmScriptRejects(t *testing.T) {
	m := loadSmall(t)
	for _, tc := range []struct {
		opts SlurmOptions
		want string
	}{
		{SlurmOptions{Shards: 0}, "--shards 0: want >= 1"},
		{SlurmOptions{Shards: 2, Throttle: -1}, "--throttle -1"},
		{SlurmOptions{Shards: 2, CPUsPerTask: -2}, "--cpus -2"},
	} {
		err := m.WriteSlurm(&strings.Builder{}, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.opts, err, tc.want)
		}
	}
}

// TestSameShardTwiceAtOnce starts shard 1/2 a second time while the
// first run of it is computing (a requeued array task whose first run is
// still going): the second waits for the first to finish, then has
// nothing left to run, and the results equal a lone run's. (Were the
// lock missing, as on a file system without flock, the UniqueKey of the
// writers would still keep each cell once: TestUniqueKey in
// store/parquet.)
func TestSameShardTwiceAtOnce(t *testing.T) {
	m := loadSmall(t)
	lone, racing := t.TempDir(), t.TempDir()
	shard := Shard{1, 2}
	if s := mustRun(t, m, RunOptions{Out: lone, Jobs: 1, Shard: shard}); s.Ran != 12 {
		t.Fatalf("lone run ran %d cells, want 12", s.Ran)
	}
	// The first run's first cell waits until the second says it waits.
	started, waiting := make(chan struct{}), make(chan string, 1)
	var once sync.Once
	first := make(chan *Summary, 1)
	go func() {
		first <- mustRun(t, m, RunOptions{Out: racing, Jobs: 1, Shard: shard,
			beforeCell: func(Cell) {
				once.Do(func() {
					close(started)
					t.Log(<-waiting)
				})
			}})
	}()
	<-started
	second := mustRun(t, m, RunOptions{Out: racing, Jobs: 1, Shard: shard,
		Waiting: func(msg string) { waiting <- msg }})
	if s := <-first; s.Ran != 12 {
		t.Fatalf("first run ran %d cells, want 12", s.Ran)
	}
	if second.Ran != 0 || second.AlreadyDone != 12 {
		t.Fatalf("second run ran %d, found %d done; want 0 and 12", second.Ran, second.AlreadyDone)
	}
	sameTables(t, lone, racing)
}
