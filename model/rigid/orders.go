package rigid

import (
	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
)

// orderPolicies are the standard policy library's queue orders, each a
// built-in policy of its own name with EASY backfilling unless its
// backfill parameter says otherwise (engine/backfill/order.go has the
// formulas; ties by submit time, then job number). fcfs is the campaign
// model's policy name too: a manifest's workloads say which model's runs
// (model.Registry). fcfs-easy, fcfs-none and fcfs-conservative
// (fcfsAllocation) are FCFS with the backfilling fixed by the name, as
// seed 003's results name it.
var orderPolicies = []struct {
	order backfill.Order // named by its String
	doc   string
}{
	{backfill.OrderFCFS, "first come, first served: by submit time"},
	{backfill.OrderSJF, "shortest job first: by estimate"},
	{backfill.OrderLJF, "longest job first: by estimate, largest first"},
	{backfill.OrderSAF, "smallest area first: by processors x estimate"},
	{backfill.OrderLAF, "largest area first: by processors x estimate, largest first"},
	{backfill.OrderSQF, "smallest request first: by processors"},
	{backfill.OrderLXF, "largest expansion factor first: (wait + estimate) / estimate, largest first"},
	{backfill.OrderWFP3, "WFP3 (Tang et al. 2009): (wait / estimate)^3 x processors, largest first"},
	{backfill.OrderUNICEF, "UNICEF (Tang et al. 2009): wait / (log2(processors) x estimate), largest first; serial jobs first"},
	{backfill.OrderF1, "F1 (Carastan-Santos and de Camargo, SC 2017): log10(estimate) x processors + 870 log10(submit), smallest first"},
	{backfill.OrderF2, "F2 (Carastan-Santos and de Camargo, SC 2017): sqrt(estimate) x processors + 25600 log10(submit), smallest first"},
	{backfill.OrderF3, "F3 (Carastan-Santos and de Camargo, SC 2017): estimate x processors + 6860000 log10(submit), smallest first"},
	{backfill.OrderF4, "F4 (Carastan-Santos and de Camargo, SC 2017): estimate x sqrt(processors) + 530000 log10(submit), smallest first"},
}

// The rigid model's FCFS besides fcfs-easy: without backfilling and with
// conservative backfilling.
const (
	PolicyFCFSNone         = "fcfs-none"
	PolicyFCFSConservative = "fcfs-conservative"
)

// fcfsAllocation returns the allocation an FCFS policy's name fixes.
func fcfsAllocation(name string) (backfill.Allocation, bool) {
	switch name {
	case PolicyFCFSEasy:
		return backfill.AllocEASY, true
	case PolicyFCFSNone:
		return backfill.AllocStrict, true
	case PolicyFCFSConservative:
		return backfill.AllocConservative, true
	}
	return 0, false
}

// orderPolicy returns the order of a standard library policy name.
func orderPolicy(name string) (backfill.Order, bool) {
	for _, o := range orderPolicies {
		if o.order.String() == name {
			return o.order, true
		}
	}
	return 0, false
}

func isOrderPolicy(name string) bool {
	_, ok := orderPolicy(name)
	return ok
}

// orderPolicyTable lists the library's policies for Policies.
func orderPolicyTable() []model.Policy {
	out := []model.Policy{
		{Name: PolicyFCFSNone, Doc: "first come, first served without backfilling: the queue starts from its head while jobs fit", Params: paramsOf(PolicyFCFSNone)},
		{Name: PolicyFCFSConservative, Doc: "first come, first served with conservative backfilling (every waiting job reserved in order)", Params: paramsOf(PolicyFCFSConservative)},
	}
	for _, o := range orderPolicies {
		name := o.order.String()
		out = append(out, model.Policy{Name: name, Doc: o.doc + "; EASY backfilling unless backfill says otherwise", Params: paramsOf(name)})
	}
	return out
}
