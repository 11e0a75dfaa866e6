package campaign

import (
	"bytes"

	"github.com/sweep-sched/sweep/model"
	wcampaign "github.com/sweep-sched/sweep/workload/campaign"
)

// ReadFile reads a campaign workload JSON file (package workload/campaign's
// format, as `sweep gen --preset ostrich2013/profiles` writes). It takes no
// options.
func (Model) ReadFile(path string, options map[string]string, env model.Env) (model.Source, error) {
	data, canon, err := model.ReadWorkloadFile(path, "campaign workload", options)
	if err != nil {
		return nil, err
	}
	w, err := wcampaign.Decode(bytes.NewReader(data), path)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	// A file is one workload, as a trace is: its campaigns are the
	// source's one instance.
	return &source{trace: &traceWorkload{campaigns: w}, canon: canon}, nil
}
