package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/sweep-sched/sweep/model"
	wcampaign "github.com/sweep-sched/sweep/workload/campaign"
)

// ReadFile reads a campaign workload JSON file (package workload/campaign's
// format, as `sweep gen --preset ostrich2013/profiles` writes). It takes no
// options.
func (Model) ReadFile(path string, options map[string]string, env model.Env) (model.Source, error) {
	if len(options) > 0 {
		return nil, model.InputError{Err: fmt.Errorf("%s: a campaign workload file takes no options; got %v", path, slices.Sorted(maps.Keys(options)))}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	w, err := wcampaign.Decode(bytes.NewReader(data), path)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	sum := sha256.Sum256(data)
	// A file is one workload, as a trace is: its campaigns are the
	// source's one instance.
	return &source{trace: &traceWorkload{campaigns: w}, canon: "file sha256=" + hex.EncodeToString(sum[:])}, nil
}
