package sweep

import (
	"context"
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

// TestSameShardTwiceAtOnce runs shard 1/2 in two processes that both plan
// before either publishes (a requeued array task whose first run is still
// going): both compute every cell of the shard, yet the results hold each
// cell once, with its job rows once, equal to a lone run's.
func TestSameShardTwiceAtOnce(t *testing.T) {
	m := loadSmall(t)
	lone, racing := t.TempDir(), t.TempDir()
	shard := Shard{1, 2}
	if s := mustRun(t, m, RunOptions{Out: lone, Jobs: 1, Shard: shard}); s.Ran != 12 {
		t.Fatalf("lone run ran %d cells, want 12", s.Ran)
	}
	// Each run's first cell waits for the other's: neither has published
	// when both have planned.
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	var wg sync.WaitGroup
	sums := make([]*Summary, 2)
	errs := make([]error, 2)
	for i := range 2 {
		var once sync.Once
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], errs[i] = Run(context.Background(), m, RunOptions{Out: racing, Jobs: 1, Shard: shard,
				beforeCell: func(Cell) {
					once.Do(func() {
						close(started[i])
						<-started[1-i]
					})
				}})
		}()
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if sums[i].Ran != 12 {
			t.Fatalf("process %d ran %d cells, want all 12 of the shard (the race did not happen)", i, sums[i].Ran)
		}
	}
	sameTables(t, lone, racing)
}
