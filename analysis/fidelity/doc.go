// Package fidelity owns the status of the papers' claims that `sweep
// analyze` checks (issue 26): the four statuses, the explanations
// registered for the claims that do not hold (embedded from
// explanations.yaml, the verdicts of docs/fidelity.md), the claims table
// analysis/claims.parquet and the study a results directory belongs to.
// The analyses of the models (analysis/grid, analysis/campaign,
// analysis/rigid, analysis/moldable) say whether each claim holds on the
// data; this package turns a claim that does not hold into an explained
// one only when an explanation is registered for it.
package fidelity
