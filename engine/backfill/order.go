package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The queue orders of the standard policy library besides RelShare and
// FCFS (policy.go). Each sorts the waiting jobs by a key, smallest first,
// ties broken by submit time, then job number (the job index): e is the
// job's estimate under the simulation's variant, n its processors, w its
// wait so far (now − submit) and s its submit time in the workload's
// seconds (the SWF's, seconds since the log's start).
const (
	// OrderSJF is shortest job first: by e.
	OrderSJF Order = iota + OrderFCFS + 1
	// OrderLJF is longest job first: by −e.
	OrderLJF
	// OrderSAF is smallest area first: by n·e.
	OrderSAF
	// OrderLAF is largest area first: by −n·e.
	OrderLAF
	// OrderSQF is smallest (processor) request first: by n.
	OrderSQF
	// OrderLXF is largest expansion factor first: by −(w+e)/e.
	OrderLXF
	// OrderWFP3 is WFP3 (Tang, Lan, Desai and Buettner, Cluster 2009, after
	// Argonne's Cobalt): by −(w/e)³·n.
	OrderWFP3
	// OrderUNICEF is Tang et al.'s UNICEF (2009): by −w/(log₂(n)·e); a
	// serial job (log₂ 1 = 0) comes before every parallel one, as the
	// formula's limit.
	OrderUNICEF
	// OrderF1 to OrderF4 are Carastan-Santos and de Camargo's learned
	// functions (SC 2017, Table 3), lowest score first:
	//	F1 = log₁₀(e)·n + 870·log₁₀(s)
	//	F2 = √e·n + 25600·log₁₀(s)
	//	F3 = e·n + 6860000·log₁₀(s)
	//	F4 = e·√n + 530000·log₁₀(s)
	// A submit time of 0 counts as 0.1 s (log₁₀ 0 is −∞), as RLScheduler's
	// F1 does.
	OrderF1
	OrderF2
	OrderF3
	OrderF4
)

var orderNames = []string{"relshare", "fcfs", "sjf", "ljf", "saf", "laf", "sqf", "lxf", "wfp3", "unicef", "f1", "f2", "f3", "f4"}

func (o Order) String() string { return enumName(orderNames, int(o)) }

// ParseOrder reads an order by name.
func ParseOrder(name string) (Order, error) {
	if i := slices.Index(orderNames, name); i >= 0 {
		return Order(i), nil
	}
	return 0, fmt.Errorf("order %q: want one of %v", name, orderNames)
}

// keyed reports whether the order sorts by a key of each job: every
// order but RelShare and FCFS.
func (o Order) keyed() bool { return o >= OrderSJF && o <= OrderF4 }

// A staticKey is the key of a job under an order whose key does not
// change while the job waits; it is fixed when the job arrives (its
// estimate is known then, a predicted one included).
type staticKey func(estSeconds, procs, submitSeconds float64) float64

// A dynamicKey is the key of a job that has waited waitSeconds; it is
// computed at every pass.
type dynamicKey func(estSeconds, procs, waitSeconds float64) float64

// staticKeys and dynamicKeys hold each keyed order's key function; a
// simulation picks its own once.
var (
	staticKeys = map[Order]staticKey{
		OrderSJF: func(e, _, _ float64) float64 { return e },
		OrderLJF: func(e, _, _ float64) float64 { return -e },
		OrderSAF: func(e, n, _ float64) float64 { return n * e },
		OrderLAF: func(e, n, _ float64) float64 { return -n * e },
		OrderSQF: func(_, n, _ float64) float64 { return n },
		OrderF1:  func(e, n, s float64) float64 { return math.Log10(e)*n + 870*log10Submit(s) },
		OrderF2:  func(e, n, s float64) float64 { return math.Sqrt(e)*n + 25600*log10Submit(s) },
		OrderF3:  func(e, n, s float64) float64 { return e*n + 6860000*log10Submit(s) },
		OrderF4:  func(e, n, s float64) float64 { return e*math.Sqrt(n) + 530000*log10Submit(s) },
	}
	dynamicKeys = map[Order]dynamicKey{
		OrderLXF: func(e, _, w float64) float64 { return -(w + e) / e },
		OrderWFP3: func(e, n, w float64) float64 {
			r := w / e
			return -r * r * r * n
		},
		OrderUNICEF: func(e, n, w float64) float64 {
			if n == 1 {
				return math.Inf(-1)
			}
			return -w / (math.Log2(n) * e)
		},
	}
)

// log10Submit is F1-F4's log₁₀ of the submit time, 0 taken as 0.1 s.
func log10Submit(submitSeconds float64) float64 { return math.Log10(max(submitSeconds, 0.1)) }

// keyedJob is one waiting job with its key, for sorting.
type keyedJob struct {
	key float64
	job int
}

// compareKeyed orders keyed jobs by key, then job index.
func compareKeyed(a, b keyedJob) int {
	return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.job, b.job))
}

// sortByKey computes this pass's order into s.order for a keyed order:
// under a static one, the waiting jobs were kept in order as they arrived
// (s.byKey); a dynamic one's keys are computed now (s.dynamicKey) and
// sorted, ties broken by job index.
func (s *sim) sortByKey() {
	kj := s.byKey
	if key := s.dynamicKey; key != nil {
		kj = slices.Grow(s.keyedBuf[:0], len(s.queue))
		for _, j := range s.queue {
			job := &s.jobs[j]
			kj = append(kj, keyedJob{key(float64(s.est[j]), float64(job.Procs), float64(s.now-job.SubmitSeconds)), j})
		}
		slices.SortFunc(kj, compareKeyed)
		s.keyedBuf = kj
	}
	s.order = slices.Grow(s.order[:0], len(kj))
	for _, k := range kj {
		s.order = append(s.order, k.job)
	}
}
