package analysis_test

import (
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/engine/campaign"
)

// TestCampaignColumnsAgree checks analysis's copy of the campaign summary
// columns against engine/campaign, which writes them.
func TestCampaignColumnsAgree(t *testing.T) {
	ours, theirs := analysis.CampaignColumns(), campaign.SummaryColumns()
	if len(ours) != len(theirs) {
		t.Fatalf("%d campaign columns; engine/campaign has %d", len(ours), len(theirs))
	}
	for i := range ours {
		if ours[i].Name != theirs[i].Name || ours[i].Integer != theirs[i].Integer || ours[i].Better != theirs[i].Better {
			t.Errorf("column %d: %+v; engine/campaign has %s (integer %v, %v)", i, ours[i], theirs[i].Name, theirs[i].Integer, theirs[i].Better)
		}
	}
	if analysis.CampaignOutlierStretch != campaign.OutlierStretch {
		t.Errorf("CampaignOutlierStretch %v; engine/campaign has %v", analysis.CampaignOutlierStretch, campaign.OutlierStretch)
	}
}
