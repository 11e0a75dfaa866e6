package model

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-sched/sweep/platform"
)

// A PolicyEntry is one entry of a manifest's policies as the models see
// it: a policy a model offers (Command and Batsim nil), perhaps with
// parameters, or an external decision process the entry itself defines.
type PolicyEntry struct {
	Name string
	// Policy is the model's policy that a named variant runs under Name
	// with its own Params ({name: easy-contiguous, policy: fcfs-easy,
	// params: {...}}); "" when Name is itself the policy.
	Policy string
	Params map[string]string
	// Command runs a decision process speaking sweep's pipe protocol
	// (docs/protocol.md); paths of files in it are resolved from the
	// manifest's folder.
	Command []string
	// Batsim runs a Batsim scheduler (policy/batsim, docs/batsim.md).
	Batsim []string
	// Argv is the command (or Batsim's) to run: the files it names
	// resolved from the manifest's folder. It is not part of the cell
	// id, so that moving the experiment's folder keeps its cells.
	Argv []string
	// Dir is the manifest's folder, the working directory of a
	// pipe-protocol process (a Batsim scheduler runs in a private one).
	Dir string
	// FileSHA256 are the SHA-256 of the files the command names, in
	// argument order ("" for arguments that name no file): a changed
	// script is a changed policy.
	FileSHA256 []string
	// DecisionTimeout bounds each exchange with the decision process (0:
	// policy/child's default, 30 s). A fault limit, never a budget, so it
	// is not part of the cell id.
	DecisionTimeout time.Duration
}

// Runs returns the name of the model's policy that the entry runs: its
// Policy for a named variant, else its Name.
func (e PolicyEntry) Runs() string {
	if e.Policy != "" {
		return e.Policy
	}
	return e.Name
}

// External reports whether the entry is a decision process.
func (e PolicyEntry) External() bool { return e.Command != nil || e.Batsim != nil }

// Canonical renders what in the entry changes a cell's result beyond its
// name: the parameters, the command and its files' hashes; "" for a plain
// policy name, so that the cells of built-in policies keep their ids.
func (e PolicyEntry) Canonical() string {
	var b strings.Builder
	if e.Policy != "" {
		fmt.Fprintf(&b, "policy %s\n", strconv.Quote(e.Policy))
	}
	for _, k := range slices.Sorted(maps.Keys(e.Params)) {
		fmt.Fprintf(&b, "param %s=%s\n", strconv.Quote(k), strconv.Quote(e.Params[k]))
	}
	quote := func(kind string, argv []string) {
		if argv == nil {
			return
		}
		b.WriteString(kind)
		for i, a := range argv {
			b.WriteString(" " + strconv.Quote(a))
			if i < len(e.FileSHA256) && e.FileSHA256[i] != "" {
				b.WriteString("@sha256:" + e.FileSHA256[i])
			}
		}
		b.WriteString("\n")
	}
	quote("command", e.Command)
	quote("batsim", e.Batsim)
	return b.String()
}

// Meaning is the policy's part of a cell id: its name, then its canonical
// form when it has one.
func (e PolicyEntry) Meaning() string {
	if c := e.Canonical(); c != "" {
		return e.Name + "\n" + c
	}
	return e.Name
}

// PolicyRuns returns the name of the model's policy that the manifest
// policy called name runs (see PolicyEntry.Runs): name itself unless the
// manifest made it a named variant.
func (env Env) PolicyRuns(name string) string {
	if e, ok := env.Policies[name]; ok {
		return e.Runs()
	}
	return name
}

// PolicyMeaning is the part of a cell id of the policy called name in
// env: its entry's Meaning, or the name alone for a policy the manifest
// gives no entry for.
func (env Env) PolicyMeaning(name string) string {
	if e, ok := env.Policies[name]; ok {
		return e.Meaning()
	}
	return name
}

// An ExternalTaker is a model that runs policies defined by a manifest
// entry as a decision process.
type ExternalTaker interface {
	// ExternalKinds lists the kinds of decision process the model runs:
	// "command" (sweep's pipe protocol), "batsim".
	ExternalKinds() []string
}

// An ExternalProber is an ExternalTaker that can start an external
// policy once before any cell runs: the decision process is started on
// platform p, its hello exchanged (a Batsim scheduler's first and last
// messages), and stopped. The runner probes each distinct command once
// per plan, so that a command that cannot start or cannot say hello is
// refused before any cell runs rather than failing every cell.
type ExternalProber interface {
	ProbeExternal(ctx context.Context, entry PolicyEntry, p *platform.Platform) error
}

// A ParamChecker is a model whose built-in policies take parameters that
// only it can check (their values, against its settings).
type ParamChecker interface {
	// CheckParams checks the parameters a manifest gives policy (one of
	// the model's) under the model's settings, and returns them as they
	// change a cell: a parameter set to its default is left out, so that
	// writing the default gives the cells of the plain name.
	CheckParams(settings Settings, policy string, params map[string]string) (map[string]string, error)
}
