package pipe

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// The test binary doubles as a decision process speaking the protocol
// in Go: TestMain runs it as one when SWEEP_PIPE_CHILD names a mode.
func TestMain(m *testing.M) {
	if mode := os.Getenv("SWEEP_PIPE_CHILD"); mode != "" {
		if err := runClient(mode); err != nil {
			fmt.Fprintln(os.Stderr, "client:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// clientOptions runs the test binary as a policy in mode.
func clientOptions(t testing.TB, mode string) Options {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Command: []string{exe, "-test.run=^$"}, Name: mode, Env: append(os.Environ(), "SWEEP_PIPE_CHILD="+mode),
		DecisionTimeout: 5 * time.Second}
}

type inMsg struct {
	Type      string  `json:"type"`
	Now       int64   `json:"now"`
	Free      int     `json:"free"`
	Finished  []int   `json:"finished"`
	Submitted []inJob `json:"submitted"`
	Jobs      []struct {
		ID      int   `json:"id"`
		Arrival int64 `json:"arrival"`
		Volume  int64 `json:"volume"`
	} `json:"jobs"`
}

type inJob struct {
	ID       int   `json:"id"`
	Submit   int64 `json:"submit"`
	Procs    int   `json:"procs"`
	Estimate int64 `json:"estimate"`
}

// runClient is a Go policy over the protocol: "easy" is FCFS with EASY
// backfilling on processor counts (engine/backfill's rule), "all"
// starts every job at once (for round-trip benchmarks), "fifo-job" and "volume"
// give DAG jobs their arrival or volume as priority; the others are
// faults.
func runClient(mode string) error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	out := bufio.NewWriter(os.Stdout)
	var queue []inJob
	type run struct {
		end   int64
		procs int
	}
	running := map[int]run{}
	jobs := map[int]inJob{}
	answer := func(s string) error {
		out.WriteString(s + "\n")
		return out.Flush()
	}
	for n := 0; in.Scan(); n++ {
		var m inMsg
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			return err
		}
		switch m.Type {
		case "hello":
			if mode == "old" {
				answer(`{"type":"hello","protocol":0}`)
				continue
			}
			answer(`{"type":"hello","protocol":1}`)
			continue
		case "end":
			return nil
		}
		if n == 3 {
			switch mode {
			case "exit":
				fmt.Fprintln(os.Stderr, "giving up at decision 3")
				os.Exit(7)
			case "crash":
				fmt.Fprintln(os.Stderr, "about to crash")
				var p *int
				_ = *p
			case "garbage":
				answer("this is not JSON")
				continue
			case "unknown":
				answer(`{"start":[123456]}`)
				continue
			case "hang":
				fmt.Fprintln(os.Stderr, "thinking forever")
				if ready := os.Getenv("SWEEP_PIPE_READY"); ready != "" {
					os.WriteFile(ready, fmt.Appendf(nil, "%d\n", os.Getpid()), 0o644)
				}
				time.Sleep(time.Hour)
			}
		}
		if m.Type == "jobs" {
			ps := []int64{}
			for _, j := range m.Jobs {
				p := j.Arrival
				if mode == "volume" {
					p = j.Volume
				}
				ps = append(ps, p)
			}
			b, _ := json.Marshal(map[string][]int64{"priority": ps})
			answer(string(b))
			continue
		}
		for _, id := range m.Finished {
			delete(running, id)
		}
		for _, j := range m.Submitted {
			queue = append(queue, j)
			jobs[j.ID] = j
		}
		if mode == "all" {
			// Starts every job at once: the round-trip benchmark's policy.
			b := []byte(`{"start":[`)
			for i, j := range m.Submitted {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(j.ID), 10)
			}
			queue = queue[:0]
			answer(string(append(b, "]}"...)))
			continue
		}
		var starts []int
		switch mode {
		case "toowide":
			if len(queue) > 0 {
				starts = append(starts, queue[0].ID, queue[0].ID)
			}
		case "early":
			starts = []int{len(jobs) + 5}
		default:
			starts = easy(queue, func(yield func(end int64, procs int) bool) {
				for _, r := range running {
					if !yield(r.end, r.procs) {
						return
					}
				}
			}, m.Free, m.Now)
		}
		for _, id := range starts {
			running[id] = run{m.Now + jobs[id].Estimate, jobs[id].Procs}
		}
		queue = slices.DeleteFunc(queue, func(j inJob) bool { return slices.Contains(starts, j.ID) })
		b, _ := json.Marshal(map[string][]int{"start": append([]int{}, starts...)})
		if err := answer(string(b)); err != nil {
			return err
		}
	}
	return in.Err()
}

// easy is EASY backfilling over processor counts (engine/backfill's
// rule, design note fairshare.md section 3).
func easy(queue []inJob, running func(func(int64, int) bool), free int, now int64) []int {
	var starts []int
	type end struct {
		at    int64
		procs int
	}
	var ends []end
	for at, p := range running {
		ends = append(ends, end{at, p})
	}
	k := 0
	for ; k < len(queue) && queue[k].Procs <= free; k++ {
		free -= queue[k].Procs
		starts = append(starts, queue[k].ID)
		ends = append(ends, end{now + queue[k].Estimate, queue[k].Procs})
	}
	if k == len(queue) {
		return starts
	}
	slices.SortFunc(ends, func(a, b end) int { return cmp.Compare(a.at, b.at) })
	need, avail, i := queue[k].Procs, free, 0
	for ; i < len(ends); i++ {
		avail += ends[i].procs
		if avail >= need {
			break
		}
	}
	shadow := ends[i].at
	for i++; i < len(ends) && ends[i].at == shadow; i++ {
		avail += ends[i].procs
	}
	extra := avail - need
	for _, j := range queue[k+1:] {
		if j.Procs > free {
			continue
		}
		switch {
		case now+j.Estimate <= shadow:
		case j.Procs <= extra:
			extra -= j.Procs
		default:
			continue
		}
		free -= j.Procs
		starts = append(starts, j.ID)
	}
	return starts
}
