package cli

import (
	"fmt"

	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/grid"
)

// claims are the papers' claims the analysis of run addresses, from every
// section, with their status: the data's, turned into explained (or
// confirmed as not holding) only by an explanation registered for the
// run's study.
func (run *analysisRun) claims() ([]fidelity.Claim, error) {
	study, err := fidelity.StudyOf(run.dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", run.name, err)
	}
	explanations, err := fidelity.Registered()
	if err != nil {
		return nil, fmt.Errorf("%s: the registered explanations: %w", run.name, err)
	}
	var claims []fidelity.Claim
	for _, s := range run.sections {
		claims = append(claims, s.claims()...)
	}
	return fidelity.Explain(study, claims, explanations), nil
}

func (s *rigidSection) claims() []fidelity.Claim { return s.result.FidelityClaims() }

func (s *moldableSection) claims() []fidelity.Claim { return s.result.FidelityClaims() }

// claims are seed 004's (the cells of Tables 3 and 4 at the run's loads)
// and the campaign studies' (figures of merit and orderings).
func (s *pairedSection) claims() []fidelity.Claim {
	var claims []fidelity.Claim
	if r := s.run.Comparison; r.HasLoads() {
		claims = append(claims, grid.FidelityClaims(r, s.run.Expect)...)
	}
	if s.run.Campaign != nil {
		claims = append(claims, s.run.Campaign.FidelityClaims()...)
	}
	return claims
}
