package backfill

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Charge is what RelShare charges a user per second of a job's run on a
// machine of nodes (on processors, always its processors).
type Charge uint8

// The charges. Every charge counts what a job holds, so an exclusive job
// pays for its whole nodes, as Slurm charges allocated resources.
const (
	// ChargeCores charges the cores held. The default.
	ChargeCores Charge = iota
	// ChargeDominant charges the dominant share (Ghodsi et al., DRF): the
	// largest of the job's fractions of the machine's cores, memory and
	// GPUs, times the machine's cores, in thousandths of a core.
	ChargeDominant
	// ChargeBilling charges Slurm's billing: the cores, memory (GiB) and
	// GPUs held weighted by Billing (TRESBillingWeights, summed), in
	// thousandths.
	ChargeBilling
)

var chargeNames = []string{"cores", "dominant", "billing"}

func (c Charge) String() string { return enumName(chargeNames, int(c)) }

// ParseCharge reads cores, dominant or billing.
func ParseCharge(name string) (Charge, error) {
	if i := slices.Index(chargeNames, name); i >= 0 {
		return Charge(i), nil
	}
	return 0, fmt.Errorf("charge %q: want cores (the cores a job holds, the default), dominant (its dominant share of cores, memory and GPUs) or billing (weights per core, GiB and GPU, as Slurm's TRESBillingWeights)", name)
}

// ParseChargeRule reads a charge with its weights: cores, dominant, or
// billing:CORE:GIB:GPU (the weights per core, GiB and GPU held).
func ParseChargeRule(s string) (Charge, Billing, error) {
	name, weights, hasWeights := strings.Cut(s, ":")
	c, err := ParseCharge(name)
	if err != nil || c != ChargeBilling {
		if err == nil && hasWeights {
			err = fmt.Errorf("charge %q: only billing takes weights (billing:CORE:GIB:GPU)", s)
		}
		return c, Billing{}, err
	}
	parts := strings.Split(weights, ":")
	var w [3]float64
	bad := !hasWeights || len(parts) != 3
	for i := 0; !bad && i < 3; i++ {
		w[i], err = strconv.ParseFloat(parts[i], 64)
		bad = err != nil || !(w[i] >= 0) || math.IsInf(w[i], 0)
	}
	if bad {
		return c, Billing{}, fmt.Errorf("charge %q: want billing:CORE:GIB:GPU, three weights >= 0 such as billing:1:0.25:10", s)
	}
	return c, Billing{Core: w[0], MemoryGiB: w[1], GPU: w[2]}, nil
}

// Billing is ChargeBilling's weights per core, per GiB of memory and per
// GPU held.
type Billing struct {
	Core, MemoryGiB, GPU float64
}

// chargeOf returns what job j, holding shares, is charged per second.
func (s *sim) chargeOf(shares []NodeShare) int64 {
	var held amounts
	for _, sh := range shares {
		held = held.plus(shareAmounts(sh))
	}
	return s.chargeOfHeld(held)
}

// chargeOfHeld returns what a job holding held in all is charged per
// second.
func (s *sim) chargeOfHeld(held amounts) int64 {
	switch s.policy.Charge {
	case ChargeDominant:
		cores, mem, gpus := s.w.Machine.Totals()
		f := float64(held.cores) / float64(cores)
		if mem > 0 {
			f = max(f, float64(held.mem)/float64(mem))
		}
		if gpus > 0 {
			f = max(f, float64(held.gpus)/float64(gpus))
		}
		return int64(math.Round(1000 * f * float64(cores)))
	case ChargeBilling:
		b := s.policy.Billing
		return int64(math.Round(1000 * (b.Core*float64(held.cores) + b.MemoryGiB*float64(held.mem)/1024 + b.GPU*float64(held.gpus))))
	}
	return int64(held.cores)
}
