package batsim

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// schedulerEnv makes the test binary a Batsim decision process written
// in Go: FCFS without backfilling, lowest free resource ids first, or one
// of the faulty behaviours the fault tests need.
const schedulerEnv = "SWEEP_BATSIM_TEST_SCHEDULER"

// parentEnv makes the test binary a simulator that runs the fixture
// under the hanging scheduler until it is killed.
const parentEnv = "SWEEP_BATSIM_TEST_PARENT"

// readyEnv names a file the hanging scheduler creates once it hangs.
const readyEnv = "SWEEP_BATSIM_TEST_READY"

func TestMain(m *testing.M) {
	if os.Getenv(parentEnv) != "" {
		opts := Options{Command: []string{os.Args[0], "-test.run=^$"}, Env: append(os.Environ(), parentEnv+"=", schedulerEnv+"=hang")}
		_, err := Simulate(context.Background(), fixtureWorkload(), opts)
		fmt.Fprintln(os.Stderr, "simulate returned:", err)
		os.Exit(1)
	}
	if mode := os.Getenv(schedulerEnv); mode != "" {
		if err := runScheduler(mode, os.Args[len(os.Args)-1]); err != nil {
			fmt.Fprintln(os.Stderr, "test scheduler:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// schedulerCommand runs this test binary as the scheduler of mode.
func schedulerCommand(t testing.TB, mode string) Options {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Command: []string{self, "-test.run=^$"}, Env: append(os.Environ(), schedulerEnv+"="+mode)}
}

type inMessage struct {
	Now    float64 `json:"now"`
	Events []struct {
		Timestamp float64 `json:"timestamp"`
		Type      string  `json:"type"`
		Data      struct {
			JobID string `json:"job_id"`
			Job   struct {
				Res      int     `json:"res"`
				Walltime float64 `json:"walltime"`
			} `json:"job"`
			Alloc       string `json:"alloc"`
			NbResources int    `json:"nb_resources"`
			Type        string `json:"type"`
		} `json:"data"`
	} `json:"events"`
}

type queued struct {
	id            string
	res           int
	walltime, end float64
}

// easyBackfill is one EASY pass after the head of the queue was found
// blocked, with engine/backfill's rules: the head's shadow time is the
// first estimated end (start + walltime) by which enough resources free
// up, every job ending then counting (inclusive); a later job starts now
// if it fits and ends by the shadow time or fits in the extra resources.
func easyBackfill(queue []queued, running map[string]queued, free int, now float64, start func(queued)) []queued {
	ends := make([]queued, 0, len(running))
	for _, r := range running {
		ends = append(ends, r)
	}
	slices.SortFunc(ends, func(a, b queued) int { return cmp.Compare(a.end, b.end) })
	avail, k := free, 0
	for ; k < len(ends); k++ {
		avail += ends[k].res
		if avail >= queue[0].res {
			break
		}
	}
	shadow := ends[k].end
	for k++; k < len(ends) && ends[k].end == shadow; k++ {
		avail += ends[k].res
	}
	extra := avail - queue[0].res
	kept := queue[:1]
	for _, j := range queue[1:] {
		fits := j.res <= free && (now+j.walltime <= shadow || j.res <= extra)
		if !fits {
			kept = append(kept, j)
			continue
		}
		if now+j.walltime > shadow {
			extra -= j.res
		}
		free -= j.res
		start(j)
	}
	return kept
}

type outEvent struct {
	Timestamp float64        `json:"timestamp"`
	Type      string         `json:"type"`
	Data      map[string]any `json:"data"`
}

func runScheduler(mode, endpointArg string) error {
	endpoint, ok := strings.CutPrefix(endpointArg, "--socket-endpoint=")
	if !ok {
		return fmt.Errorf("last argument %q: want --socket-endpoint=", endpointArg)
	}
	sock := zmq4.NewRep(context.Background())
	defer sock.Close()
	if err := sock.Listen(endpoint); err != nil {
		return err
	}
	var (
		free    []int // free resource ids, ascending
		queue   []queued
		running = map[string]queued{}
		allocOf = map[string][]int{}
	)
	for n := 1; ; n++ {
		msg, err := sock.Recv()
		if err != nil {
			return err
		}
		var in inMessage
		if err := json.Unmarshal(msg.Bytes(), &in); err != nil {
			return err
		}
		out := []outEvent{}
		ended := false
		for _, e := range in.Events {
			switch e.Type {
			case "SIMULATION_BEGINS":
				for i := range e.Data.NbResources {
					free = append(free, i)
				}
				if mode == "callreject" {
					out = append(out, outEvent{in.Now, "CALL_ME_LATER", map[string]any{"timestamp": in.Now + 5}})
				}
			case "JOB_SUBMITTED":
				if mode == "callreject" && e.Data.JobID == "w0!3" {
					out = append(out, outEvent{in.Now, "REJECT_JOB", map[string]any{"job_id": e.Data.JobID}})
					continue
				}
				queue = append(queue, queued{id: e.Data.JobID, res: e.Data.Job.Res, walltime: e.Data.Job.Walltime})
			case "JOB_COMPLETED":
				if got, want := e.Data.Alloc, formatIntervals(allocOf[e.Data.JobID]); got != want {
					return fmt.Errorf("JOB_COMPLETED %s on %q, want its allocation %q", e.Data.JobID, got, want)
				}
				free = append(free, allocOf[e.Data.JobID]...)
				slices.Sort(free)
				delete(running, e.Data.JobID)
			case "SIMULATION_ENDS":
				ended = true
			}
		}
		start := func(j queued) {
			j.end = in.Now + j.walltime
			running[j.id] = j
			allocOf[j.id] = slices.Clone(free[:j.res])
			free = free[j.res:]
			out = append(out, outEvent{in.Now, "EXECUTE_JOB", map[string]any{"job_id": j.id, "alloc": formatIntervals(allocOf[j.id])}})
		}
		for len(queue) > 0 && queue[0].res <= len(free) {
			start(queue[0])
			queue = queue[1:]
		}
		if mode == "easy" && len(queue) > 1 {
			queue = easyBackfill(queue, running, len(free), in.Now, start)
		}
		now := in.Now
		if n == 3 {
			switch mode {
			case "exit":
				fmt.Fprintln(os.Stderr, "giving up at the third message")
				os.Exit(3)
			case "hang":
				fmt.Fprintln(os.Stderr, "thinking hard")
				if ready := os.Getenv(readyEnv); ready != "" {
					os.WriteFile(ready, []byte(strconv.Itoa(os.Getpid())), 0o600)
				}
				time.Sleep(time.Hour)
			case "garbage":
				if err := sock.Send(zmq4.NewMsgString("this is not JSON")); err != nil {
					return err
				}
				continue
			case "busy":
				out = append(out, outEvent{in.Now, "EXECUTE_JOB", map[string]any{"job_id": "w0!2", "alloc": "0"}})
			case "nonexistent":
				out = append(out, outEvent{in.Now, "EXECUTE_JOB", map[string]any{"job_id": "w0!2", "alloc": "7"}})
			case "unknown":
				out = append(out, outEvent{in.Now, "EXECUTE_JOB", map[string]any{"job_id": "w0!99", "alloc": "3"}})
			case "kill":
				out = append(out, outEvent{in.Now, "KILL_JOB", map[string]any{"job_ids": []string{"w0!0"}}})
			case "past":
				now = in.Now - 1
			}
		}
		// A scheduler that consumes time: decisions at now + 0.5 s.
		if mode == "slow" && len(out) > 0 {
			now += 0.5
			for i := range out {
				out[i].Timestamp = now
			}
		}
		b, err := json.Marshal(map[string]any{"now": now, "events": out})
		if err != nil {
			return err
		}
		if err := sock.Send(zmq4.NewMsg(b)); err != nil {
			return err
		}
		if ended {
			return nil
		}
	}
}

// fcfsFixture is a hand-made trace on 4 resources. Strict FCFS with the
// lowest free ids: job 0 (2 resources, 10 s) starts at 0 on 0-1; job 1 (3
// resources) waits for it and starts at 10 on 0-2, job 2 (1 resource,
// submitted at 1) behind it at 10 on 3; job 3 (4 resources, submitted at
// 12) waits for jobs 1 and 2 and starts at 15 on 0-3.
var fcfsFixture = []struct {
	submit, procs, run, req int64
	start                   int64
	alloc                   string
}{
	{0, 2, 10, 20, 0, "0-1"},
	{0, 3, 5, 5, 10, "0-2"},
	{1, 1, 3, 4, 10, "3"},
	{12, 4, 2, 9, 15, "0-3"},
}
