//go:build !unix

package grid_test

import (
	"testing"
	"time"
)

// cpuTime returns -1: the process's CPU time is not known here.
func cpuTime(*testing.B) time.Duration { return -1 }
