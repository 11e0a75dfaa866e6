package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestSlurmCPUWarning(t *testing.T) {
	tests := []struct {
		name      string
		cpus      int
		partition string
		sinfo     string
		err       error
		wantArgs  string
		want      string // substring of the warning; "" means none
	}{
		{name: "fits", cpus: 2, sinfo: "2\n", wantArgs: "--noheader --Node --format=%c"},
		{name: "too many", cpus: 16, sinfo: "2\n", want: "--cpus 16: no node on this cluster has that many CPUs (the largest has 2)"},
		{name: "largest node counts", cpus: 16, sinfo: "8\n32\n4\n"},
		{name: "partition", cpus: 16, partition: "short", sinfo: "8\n8\n", wantArgs: "--noheader --Node --format=%c --partition=short",
			want: "no node in partition short has that many CPUs (the largest has 8)"},
		{name: "empty partition", cpus: 1, partition: "nope", sinfo: "", want: "sinfo lists no node in partition nope"},
		{name: "no sinfo", cpus: 64, err: errNoSinfo},
		{name: "sinfo fails", cpus: 64, err: errors.New("exit status 1")},
	}
	for _, tc := range tests {
		var gotArgs string
		sinfo := func(_ context.Context, args ...string) (string, error) {
			gotArgs = strings.Join(args, " ")
			return tc.sinfo, tc.err
		}
		got := cpuWarning(context.Background(), tc.cpus, tc.partition, sinfo)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: warning %q, want %q", tc.name, got, tc.want)
		}
		if tc.wantArgs != "" && gotArgs != tc.wantArgs {
			t.Errorf("%s: sinfo %s, want %s", tc.name, gotArgs, tc.wantArgs)
		}
	}
}

func TestSlurmCommand(t *testing.T) {
	noNodeFits := func(context.Context, ...string) (string, error) { return "2\n", nil }
	var stdout, stderr strings.Builder
	err := testApp().slurmCommand(context.Background(), []string{"../sweep/testdata/small.yaml", "--shards", "3", "--cpus", "4", "--throttle", "2"}, &stdout, &stderr, noNodeFits)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=1-3%2\n", "#SBATCH --cpus-per-task=4\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("script lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "warning: --cpus 4: no node on this cluster has that many CPUs") {
		t.Errorf("stderr %q lacks the warning", stderr.String())
	}

	called := false
	spy := func(context.Context, ...string) (string, error) { called = true; return "", nil }
	stdout.Reset()
	if err := testApp().slurmCommand(context.Background(), []string{"../sweep/testdata/small.yaml", "--shards", "3"}, &stdout, &stderr, spy); err != nil {
		t.Fatal(err)
	}
	if called || strings.Contains(stdout.String(), "--cpus-per-task") {
		t.Errorf("without --cpus: sinfo called %v, script:\n%s", called, stdout.String())
	}
	if err := testApp().slurmCommand(context.Background(), []string{"../sweep/testdata/small.yaml", "--shards", "3", "--throttle", "-1"}, &stdout, &stderr, spy); !errors.As(err, new(usageError)) {
		t.Errorf("--throttle -1: got %v, want a usage error", err)
	}
}
