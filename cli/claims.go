package cli

import (
	"fmt"

	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/report"
)

// runClaims are the papers' claims the analysis of run addresses, from
// every section, with their status: the data's, turned into explained (or
// confirmed as not holding) only by an explanation registered for the
// run's study.
func runClaims(run *report.Run) ([]fidelity.Claim, error) {
	study, err := fidelity.StudyOf(run.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", run.Name, err)
	}
	explanations, err := fidelity.Registered()
	if err != nil {
		return nil, fmt.Errorf("%s: the registered explanations: %w", run.Name, err)
	}
	var claims []fidelity.Claim
	for _, s := range run.Sections() {
		claims = append(claims, s.Claims()...)
	}
	return fidelity.Explain(study, claims, explanations), nil
}
