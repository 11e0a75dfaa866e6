package grid

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/sweep-sched/sweep/workload/dag"
)

// Arrivals returns the arrival tick of each job for load ratio load on a
// platform of platformCores cores (DESIGN.md section 3): a(0) = 0,
// a(k+1) = a(k) + ceil(volumes[k] / (platformCores x load)).
//
// The load is taken as the decimal number its shortest float64 text form
// denotes (strconv.FormatFloat(load, 'g', -1, 64)): 0.9 is exactly 9/10,
// not the binary float nearest to it. The ceiling is then computed exactly
// in integers, ceil(volume x den / (cores x num)), so every caller gets the
// same ticks. (In float64, 63 / (90 x 0.7) rounds up to 2; exactly, it is 1.)
func Arrivals(volumes []int64, platformCores int, load float64) ([]int64, error) {
	if platformCores < 1 {
		return nil, fmt.Errorf("arrivals: platform of %d cores: want >= 1", platformCores)
	}
	num, den, err := loadRatio(load)
	if err != nil {
		return nil, err
	}
	hi, divisor := bits.Mul64(uint64(platformCores), num)
	if hi != 0 {
		return nil, fmt.Errorf("arrivals: %d cores x load %v overflows 64 bits; want a load with fewer digits", platformCores, load)
	}
	arrivals := make([]int64, len(volumes))
	var at uint64
	for k, v := range volumes {
		if v < 0 {
			return nil, fmt.Errorf("arrivals: job %d has volume %d: want >= 0", k, v)
		}
		arrivals[k] = int64(at)
		if k == len(volumes)-1 {
			break
		}
		// ceil(v x den / divisor) in 128 bits.
		hi, lo := bits.Mul64(uint64(v), den)
		if hi >= divisor {
			return nil, fmt.Errorf("arrivals: job %d: gap for volume %d at load %v exceeds 64 bits", k, v, load)
		}
		gap, rem := bits.Div64(hi, lo, divisor)
		if rem != 0 {
			gap++
		}
		next, carry := bits.Add64(at, gap, 0)
		if carry != 0 || next > math.MaxInt64 {
			return nil, fmt.Errorf("arrivals: job %d: arrival tick overflows int64 at load %v", k+1, load)
		}
		at = next
	}
	return arrivals, nil
}

// loadRatio returns load as an exact reduced fraction num/den of its
// shortest decimal form.
func loadRatio(load float64) (num, den uint64, err error) {
	if !(load > 0) || math.IsInf(load, 0) {
		return 0, 0, fmt.Errorf("arrivals: load %v: want a positive ratio like 0.8 or 1.2", load)
	}
	text := strconv.FormatFloat(load, 'g', -1, 64)
	r, ok := new(big.Rat).SetString(text)
	if !ok || !r.Num().IsUint64() || !r.Denom().IsUint64() {
		return 0, 0, fmt.Errorf("arrivals: load %s: want a ratio whose decimal numerator and denominator fit 64 bits", text)
	}
	return r.Num().Uint64(), r.Denom().Uint64(), nil
}

// SetArrivals sets every job's arrival for load ratio load on a platform of
// platformCores cores (see Arrivals), from the jobs' volumes.
func SetArrivals(w *dag.Workload, platformCores int, load float64) error {
	volumes := make([]int64, len(w.Jobs))
	for i := range w.Jobs {
		volumes[i] = w.Jobs[i].Volume()
	}
	arrivals, err := Arrivals(volumes, platformCores, load)
	if err != nil {
		return err
	}
	for i := range w.Jobs {
		w.Jobs[i].Arrival = &arrivals[i]
	}
	return nil
}
