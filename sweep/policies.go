package sweep

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sweep-sched/sweep/model"
)

// checkExternal checks an external policy entry on its own.
func (m *Manifest) checkExternal(spec PolicySpec) error {
	switch {
	case spec.Command != nil && spec.Batsim != nil:
		return errors.New("give command (sweep's pipe protocol) or batsim (a Batsim scheduler), not both")
	case len(spec.Command) == 0 && len(spec.Batsim) == 0:
		return errors.New("empty command; want the decision process's argv, e.g. [python3, policies/sjf.py]")
	case spec.Batsim != nil && len(spec.Params) > 0:
		return errors.New("params go to a pipe-protocol policy's handshake; a Batsim scheduler takes its options in its argv")
	}
	if _, owner, ok := m.models.Policy(spec.Name); ok {
		return fmt.Errorf("the name is model %s's built-in policy; give your policy another name", owner.Name())
	}
	if spec.Timeout != "" {
		if d, err := time.ParseDuration(spec.Timeout); err != nil || d <= 0 {
			return fmt.Errorf("timeout %q: want a positive Go duration such as 30s or 5m (the limit of each decision)", spec.Timeout)
		}
	}
	if spec.Model != "" && m.models.Lookup(spec.Model) == nil {
		var names []string
		for _, md := range m.models.Models() {
			names = append(names, md.Name())
		}
		return fmt.Errorf("model %q: unknown; valid models: %s", spec.Model, strings.Join(names, ", "))
	}
	return nil
}

// resolvePolicies resolves every policy entry: the model of each external
// one (named, or that of the workloads it runs) and the files its command
// names, taken from the manifest's folder and hashed.
func (m *Manifest) resolvePolicies() error {
	m.entries = map[string]model.PolicyEntry{}
	m.external = map[string]model.Model{}
	for _, spec := range m.Policies {
		e := model.PolicyEntry{Name: spec.Name, Policy: spec.Policy, Params: spec.Params}
		where := fmt.Sprintf("%s: policy %q", m.at("policies"), spec.Name)
		if !spec.external() {
			if len(spec.Params) > 0 {
				var err error
				if e.Params, err = m.checkedParams(e.Runs(), spec.Params); err != nil {
					return fmt.Errorf("%s: %w", where, err)
				}
			}
			m.entries[spec.Name] = e
			continue
		}
		md, err := m.externalModel(spec)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		kind, argv := "command", spec.Command
		if spec.Batsim != nil {
			kind, argv = "batsim", spec.Batsim
		}
		taker, ok := md.(model.ExternalTaker)
		if !ok || !slices.Contains(taker.ExternalKinds(), kind) {
			return fmt.Errorf("%s: model %s runs no %s policies", where, md.Name(), kind)
		}
		e.Command, e.Batsim = spec.Command, spec.Batsim
		if e.Dir, err = filepath.Abs(m.pathOf(".")); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if spec.Timeout != "" {
			e.DecisionTimeout, _ = time.ParseDuration(spec.Timeout) // checked by checkExternal
		}
		e.Argv = slices.Clone(argv)
		e.FileSHA256 = make([]string, len(argv))
		for i, arg := range argv {
			path := m.pathOf(arg)
			if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || (i == 0 && !strings.ContainsRune(arg, '/')) {
				continue // a program found on PATH, or an option
			}
			sum, err := fileSHA256(path)
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			if e.Argv[i], err = filepath.Abs(path); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			e.FileSHA256[i] = sum
		}
		m.entries[spec.Name] = e
		m.external[spec.Name] = md
	}
	return nil
}

// checkedParams returns the parameters of a built-in policy as the first
// model whose policy of that name takes them checks them (fcfs takes
// parameters as the rigid model's, none as the campaign model's).
func (m *Manifest) checkedParams(policy string, params map[string]string) (map[string]string, error) {
	var firstErr error
	for _, owner := range m.models.PolicyModels(policy) {
		p, _ := model.PolicyOf(owner, policy)
		if err := checkParams(p, params); err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		pc, ok := owner.(model.ParamChecker)
		if !ok {
			return params, nil
		}
		return pc.CheckParams(m.settings[owner.Name()], policy, params)
	}
	return nil, firstErr
}

// externalModel is the model of an external policy: the one named, or the
// one every workload belongs to.
func (m *Manifest) externalModel(spec PolicySpec) (model.Model, error) {
	if spec.Model != "" {
		return m.models.Lookup(spec.Model), nil
	}
	var md model.Model
	for _, rs := range m.sources {
		if md != nil && md.Name() != rs.model.Name() {
			return nil, fmt.Errorf("the workloads are of models %s and %s: say which this policy is for with model: NAME (and exclude the other workloads)", md.Name(), rs.model.Name())
		}
		md = rs.model
	}
	if md == nil {
		return nil, errors.New("no workload to infer its model from; give model: NAME")
	}
	return md, nil
}

// policyModels returns the models of a manifest policy: an external
// policy's one, or every model offering the built-in it runs.
func (m *Manifest) policyModels(name string) []model.Model {
	if md, ok := m.external[name]; ok {
		return []model.Model{md}
	}
	return m.models.PolicyModels(m.policyRuns(name))
}

// offers reports whether md runs the manifest policy called name.
func (m *Manifest) offers(md model.Model, name string) bool {
	return slices.ContainsFunc(m.policyModels(name), func(o model.Model) bool { return o.Name() == md.Name() })
}

// policyRuns is the model's policy that the manifest policy called name
// runs: name itself unless the entry is a named variant.
func (m *Manifest) policyRuns(name string) string {
	return model.Env{Policies: m.entries}.PolicyRuns(name)
}

// PolicyEntries returns the manifest's policy entries that change cell
// ids (parameters, commands) with their canonical form, for the Parquet
// metadata.
func (m *Manifest) PolicyEntries() map[string]string {
	out := map[string]string{}
	for name, e := range m.entries {
		if c := e.Canonical(); c != "" {
			out[name] = c
		}
	}
	return out
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// A ProbeError is an external policy whose decision process could not
// start or say hello when probed before the run (ProbePolicies): bad
// input, the command must change.
type ProbeError struct {
	Policy string
	Argv   []string
	Err    error // the start's or the hello's (a *child.Fault quotes the stderr tail)
}

func (e *ProbeError) Error() string {
	return fmt.Sprintf("policy %q: %s did not start and say hello when probed before the run: %v\n"+
		"(the command must name the interpreter the policy's client is installed in, such as .venv/bin/python; docs/protocol.md)",
		e.Policy, strings.Join(e.Argv, " "), e.Err)
}

func (e *ProbeError) Unwrap() error { return e.Err }

// ProbePolicies starts each external policy that cells run, once per
// distinct command (its model's ExternalProber on the platform of its
// first cell), and stops it after the hello: a command that cannot start
// or say hello is refused with a *ProbeError before any cell runs, rather
// than failing every cell. Probes run one after another, in manifest
// order.
func (m *Manifest) ProbePolicies(ctx context.Context, cells []Cell) error {
	platformOf := map[string]string{} // policy -> platform of its first cell
	for _, c := range cells {
		if _, ok := m.external[c.Policy]; ok && platformOf[c.Policy] == "" {
			platformOf[c.Policy] = c.Platform
		}
	}
	probed := map[string]bool{}
	for _, spec := range m.Policies {
		name := spec.Name
		e, md := m.entries[name], m.external[name]
		prober, ok := md.(model.ExternalProber)
		if platformOf[name] == "" || !ok {
			continue
		}
		key := fmt.Sprintf("%s %v %v %q", md.Name(), e.Batsim != nil, e.Argv, e.Dir)
		if probed[key] {
			continue
		}
		probed[key] = true
		if err := prober.ProbeExternal(ctx, e, m.platform[platformOf[name]]); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &ProbeError{Policy: name, Argv: e.Argv, Err: err}
		}
	}
	return nil
}
