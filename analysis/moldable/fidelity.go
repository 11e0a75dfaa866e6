package moldable

import "github.com/sweep-sched/sweep/analysis/fidelity"

// FidelityClaims returns the text's claims (Claims) with their status;
// a claim's id is its workload and text, "mixed/List-SAF is better than
// DEMT on C_max".
func (r *Result) FidelityClaims() []fidelity.Claim {
	claims := make([]fidelity.Claim, len(r.Claims))
	for i, c := range r.Claims {
		claims[i] = fidelity.Checked(c.Workload+"/"+c.Text, c.Text, "as the text says", c.Evidence, c.Holds)
	}
	return claims
}
