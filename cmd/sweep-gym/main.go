// Command sweep-gym serves sweep's rigid-job learning environments to the
// Python package's gymnasium.Env (python/sweep_policy/gym.py) over its
// standard input and output: one JSON setup line, then binary frames
// (docs/gym.md). It links the simulator only (no Arrow), so it builds in
// seconds; `sweep gym` is the same server.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/sweep-sched/sweep/gym"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: sweep-gym (a JSON setup line on standard input, then binary frames: docs/gym.md)")
		os.Exit(2)
	}
	// Every frame is one Write: no buffering to flush.
	if err := gym.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sweep-gym:", err)
		os.Exit(1)
	}
}
