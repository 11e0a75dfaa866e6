package report

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
)

// userCountFigures are the figures of merit that the report plots against
// the number of users of the synthetic study (seed 001; DESIGN.md section
// 4: the paper does not state its user count).
var userCountFigures = []string{
	"campaign_stretch_over20_share",
	"short_user_max_stretch_mean",
	"long_user_max_stretch_mean",
}

// workloadUsers reads the results directory's manifest.yaml and returns
// the `users` parameter of each workload entry that sets one, by label
// (the label a manifest leaves out is the generator's last path element,
// as the runner names it). No manifest, no counts.
func workloadUsers(dir string) (map[string]int, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.yaml"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m struct {
		Workloads []struct {
			Label     string            `yaml:"label"`
			Generator string            `yaml:"generator"`
			Set       map[string]string `yaml:"set"`
		} `yaml:"workloads"`
	}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("reading the workloads of %s: %w", filepath.Join(dir, "manifest.yaml"), err)
	}
	counts := map[string]int{}
	for _, w := range m.Workloads {
		users, err := strconv.Atoi(strings.TrimSpace(w.Set["users"]))
		if err != nil {
			continue
		}
		label := w.Label
		if label == "" {
			label = w.Generator[strings.LastIndexByte(w.Generator, '/')+1:]
		}
		counts[label] = users
	}
	return counts, nil
}

// addUserCountFigures plots, when the campaign workloads with a user count
// have at least two different counts, each of userCountFigures under every
// policy against the number of users: one point per count, the mean over
// the instances of the workloads with that count (each workload's mean
// weighted by its instances), with the 95% interval of the table of
// figures of merit when one workload has the count.
func addUserCountFigures(p *page, r *analysis.Result, c *campaign.Result, counts map[string]int, files *figureFiles) error {
	type key struct {
		metric, policy string
		users          int
	}
	type sum struct {
		weighted             float64
		instances, workloads int
		low, high            float64 // the interval of the one workload
	}
	sums := map[key]sum{}
	var users []int
	for _, workload := range c.Workloads {
		n, ok := counts[workload]
		if !ok {
			continue
		}
		if !slices.Contains(users, n) {
			users = append(users, n)
		}
		for _, row := range c.FiguresOf(workload) {
			if slices.Contains(userCountFigures, row.Metric) && row.HasOurs() {
				k := key{row.Metric, row.Policy, n}
				sums[k] = sum{sums[k].weighted + row.Mean*float64(row.N), sums[k].instances + row.N, sums[k].workloads + 1, row.Low, row.High}
			}
		}
	}
	if len(users) < 2 {
		return nil
	}
	slices.Sort(users)
	for _, metric := range userCountFigures {
		pl := newPlot()
		pl.X.Label.Text = "users (half of them short)"
		pl.Y.Label.Text = campaign.FigureLabel(metric) + " (" + userCountUnits[metric] + ")"
		legend := plot.NewLegend()
		drawn := false
		for _, policy := range r.Policies {
			var pts errorPoints
			for _, n := range users {
				s := sums[key{metric, policy, n}]
				if s.instances == 0 {
					continue
				}
				mean, below, above := s.weighted/float64(s.instances), 0.0, 0.0
				if s.workloads == 1 && !math.IsNaN(s.low) && !math.IsNaN(s.high) {
					// Shares and stretches are not negative: the
					// interval is cut at 0, as the axis.
					below, above = mean-max(0, s.low), s.high-mean
				}
				pts.XYs = append(pts.XYs, plotter.XY{X: float64(n), Y: mean})
				pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{below, above})
			}
			if err := addRange(pl, &legend, policy, styleOf(policy), pts); err != nil {
				return fmt.Errorf("%s against users: %w", metric, err)
			}
			drawn = drawn || len(pts.XYs) > 0
		}
		if !drawn {
			continue
		}
		pl.Y.Min = 0
		pl.Add(plotter.NewGrid())
		counts := make([]float64, len(users))
		for i, n := range users {
			counts[i] = float64(n)
		}
		pl.X.Tick.Marker = constantTicks(counts)
		ch := chart{name: "users-" + metric, plot: pl, legend: &legend}
		svg, err := files.add(ch)
		if err != nil {
			return fmt.Errorf("%s against users: %w", metric, err)
		}
		p.CampaignFigures = append(p.CampaignFigures, figure{
			Title: fmt.Sprintf("%s against the number of users (seed 001's study; the paper does not state its count): "+
				"mean over the instances of each count, with its 95%% interval (cut at 0)", campaign.FigureLabel(metric)),
			SVG: svg, File: ch.name,
		})
	}
	return nil
}

// userCountUnits are the units of userCountFigures.
var userCountUnits = map[string]string{
	"campaign_stretch_over20_share": "fraction of campaigns",
	"short_user_max_stretch_mean":   "ratio",
	"long_user_max_stretch_mean":    "ratio",
}
