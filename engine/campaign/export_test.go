package campaign

// Internals for the external tests (policy_test.go is package
// campaign_test, since it measures schedules with model/campaign, which
// imports this package).
var (
	JobOrder        = jobOrder
	NewOstrichOrder = newOstrichOrder
)
