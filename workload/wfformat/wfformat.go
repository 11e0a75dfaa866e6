// Package wfformat reads workflow instances in WfCommons' WfFormat, the
// JSON format of the WfInstances collection (Coleman et al., FGCS 2022;
// schema at github.com/wfcommons/WfFormat).
//
// It reads schema 1.5 (workflow.specification with tasks and files,
// workflow.execution with the measured tasks) and the older flat layout of
// schema 1.4 (workflow.tasks, each with its runtime, parents by task name
// and files by link), and says which one it read (Instance.SchemaVersion).
// Older versions (1.0-1.3) are refused with a pointer to WfFormat's
// migration tool. Fields a scheduler does not need (machines, command
// arguments, energy) are ignored.
//
// It is a leaf: converters to sweep's workloads (gen/wfcommons) build on
// it. Every problem is located by file, task and field (Error).
package wfformat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
)

// The schema versions this package reads.
const (
	Version15 = "1.5"
	Version14 = "1.4"
)

// maxCoreCount bounds a task's coreCount so that counts stay small integers.
const maxCoreCount = 1_000_000

// An Instance is one workflow execution: its tasks in file order with
// their measured run times and the sizes of the files they read and write.
type Instance struct {
	Source          string // where it was read from, for messages
	Name            string
	SchemaVersion   string  // Version15 or Version14
	MakespanSeconds float64 // the recorded execution's makespan; 0 if absent
	Tasks           []Task
	// FileBytes maps a file id (1.5) or name (1.4) to its size in bytes.
	FileBytes map[string]int64
}

// A Task is one task of an instance.
type Task struct {
	// ID identifies the task within the instance: its id in 1.5, its name
	// in 1.4 (the key 1.4 parent lists use).
	ID   string
	Name string
	// Category is the task's category field (1.4), or for 1.5, which has
	// none, its name up to WfCommons' "_ID" suffix (mProject_ID0000001 is
	// mProject), the rule of WfFormat's own migration tool.
	Category string
	// Program is command.program; "" when the instance does not say.
	Program        string
	RuntimeSeconds float64 // >= 0
	// CoreCount is the task's coreCount (cores in 1.4); 0 when absent.
	CoreCount int
	// Parents lists the positions of the tasks that must finish first,
	// ascending: the union of the task's parents and of the tasks naming
	// it among their children.
	Parents     []int
	InputFiles  []string
	OutputFiles []string
}

// An Error locates a problem in an instance: the file, the task (position
// and id, Task -1 when not about one task) and the field.
type Error struct {
	Source string
	Task   int
	TaskID string
	Field  string
	Msg    string
}

func (e *Error) Error() string {
	var b bytes.Buffer
	if e.Source != "" {
		fmt.Fprintf(&b, "%s: ", e.Source)
	}
	if e.Task >= 0 {
		fmt.Fprintf(&b, "task %d (%q)", e.Task, e.TaskID)
		if e.Field != "" {
			fmt.Fprintf(&b, " field %q", e.Field)
		}
		b.WriteString(": ")
	} else if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads the instance in the file at path.
func Load(path string) (*Instance, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading WfFormat instance: %w", err)
	}
	return Decode(bytes.NewReader(data), path)
}

// The JSON layouts. Pointers tell absent fields from zeros.
type (
	fileJSON struct {
		Name          string       `json:"name"`
		SchemaVersion *string      `json:"schemaVersion"`
		Workflow      workflowJSON `json:"workflow"`
	}
	workflowJSON struct {
		Specification *struct {
			Tasks []specTaskJSON `json:"tasks"`
			Files []struct {
				ID          string   `json:"id"`
				SizeInBytes *float64 `json:"sizeInBytes"`
			} `json:"files"`
		} `json:"specification"`
		Execution *struct {
			MakespanInSeconds *float64       `json:"makespanInSeconds"`
			Tasks             []execTaskJSON `json:"tasks"`
		} `json:"execution"`
		// Schema 1.4.
		MakespanInSeconds *float64       `json:"makespanInSeconds"`
		Tasks             []flatTaskJSON `json:"tasks"`
	}
	specTaskJSON struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		Parents     []string `json:"parents"`
		Children    []string `json:"children"`
		InputFiles  []string `json:"inputFiles"`
		OutputFiles []string `json:"outputFiles"`
	}
	commandJSON struct {
		Program string `json:"program"`
	}
	execTaskJSON struct {
		ID               string       `json:"id"`
		RuntimeInSeconds *float64     `json:"runtimeInSeconds"`
		CoreCount        *float64     `json:"coreCount"`
		Command          *commandJSON `json:"command"`
	}
	flatTaskJSON struct {
		Name             string       `json:"name"`
		Category         string       `json:"category"`
		Parents          []string     `json:"parents"`
		Children         []string     `json:"children"`
		RuntimeInSeconds *float64     `json:"runtimeInSeconds"`
		Cores            *float64     `json:"cores"`
		Command          *commandJSON `json:"command"`
		Files            []struct {
			Name        string   `json:"name"`
			SizeInBytes *float64 `json:"sizeInBytes"`
			Link        string   `json:"link"`
		} `json:"files"`
	}
)

// Decode reads one instance from its JSON form and checks it: unique task
// ids, every parent, child and file named exists, run times present,
// finite and >= 0, core counts whole and >= 1, file sizes whole and >= 0,
// and no dependency cycle. source names the input in errors.
func Decode(r io.Reader, source string) (*Instance, error) {
	var f fileJSON
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: malformed JSON at byte %d: %v", source, se.Offset, err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: field %q at byte %d: got JSON %s, want %s", source, te.Field, te.Offset, te.Value, te.Type)
		}
		return nil, fmt.Errorf("%s: malformed JSON: %w (want a WfFormat instance {\"schemaVersion\": \"1.5\", \"workflow\": ...})", source, err)
	}
	if f.SchemaVersion == nil {
		return nil, &Error{Source: source, Task: -1, Field: "schemaVersion", Msg: "missing; want \"1.5\" or \"1.4\""}
	}
	in := &Instance{Source: source, Name: f.Name, SchemaVersion: *f.SchemaVersion}
	var err error
	switch in.SchemaVersion {
	case Version15:
		err = in.read15(&f.Workflow)
	case Version14:
		err = in.read14(&f.Workflow)
	default:
		err = &Error{Task: -1, Field: "schemaVersion", Msg: fmt.Sprintf("%q: this reader reads WfFormat %s and %s; migrate older instances with WfFormat's tools/wfcommons-migrate-instance.py", in.SchemaVersion, Version15, Version14)}
	}
	if err == nil {
		err = in.checkAcyclic()
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Source = source
		}
		return nil, err
	}
	return in, nil
}

// read15 reads the specification/execution layout of schema 1.5.
func (in *Instance) read15(w *workflowJSON) error {
	spec, exec := w.Specification, w.Execution
	if spec == nil {
		return &Error{Task: -1, Field: "workflow.specification", Msg: "missing; schema 1.5 keeps tasks in workflow.specification.tasks"}
	}
	if exec == nil {
		return &Error{Task: -1, Field: "workflow.execution", Msg: "missing; schema 1.5 keeps run times in workflow.execution.tasks"}
	}
	if len(spec.Tasks) == 0 {
		return &Error{Task: -1, Field: "workflow.specification.tasks", Msg: "no tasks; want at least one"}
	}
	if exec.MakespanInSeconds != nil {
		in.MakespanSeconds = *exec.MakespanInSeconds
	}
	in.FileBytes = make(map[string]int64, len(spec.Files))
	for i, file := range spec.Files {
		field := fmt.Sprintf("workflow.specification.files[%d]", i)
		if file.ID == "" {
			return &Error{Task: -1, Field: field + ".id", Msg: "empty; want a file id"}
		}
		size, err := fileSize(file.SizeInBytes)
		if err != nil {
			return &Error{Task: -1, Field: field + ".sizeInBytes", Msg: fmt.Sprintf("file %q: %v", file.ID, err)}
		}
		in.FileBytes[file.ID] = size
	}
	pos, err := in.addTasks(len(spec.Tasks), func(i int) (id, name string) { return spec.Tasks[i].ID, spec.Tasks[i].Name }, "id")
	if err != nil {
		return err
	}
	for i := range spec.Tasks {
		st, t := &spec.Tasks[i], &in.Tasks[i]
		t.Category = categoryFromName(st.Name)
		t.InputFiles, t.OutputFiles = st.InputFiles, st.OutputFiles
		for _, files := range []struct {
			field string
			ids   []string
		}{{"inputFiles", st.InputFiles}, {"outputFiles", st.OutputFiles}} {
			for _, id := range files.ids {
				if _, ok := in.FileBytes[id]; !ok {
					return in.taskError(i, files.field, "names file %q, which is not in workflow.specification.files", id)
				}
			}
		}
	}
	if err := in.link(pos, func(i int) ([]string, []string) { return spec.Tasks[i].Parents, spec.Tasks[i].Children }); err != nil {
		return err
	}
	seen := make([]bool, len(in.Tasks))
	for k := range exec.Tasks {
		et := &exec.Tasks[k]
		i, ok := pos[et.ID]
		if !ok {
			return &Error{Task: -1, Field: fmt.Sprintf("workflow.execution.tasks[%d].id", k), Msg: fmt.Sprintf("%q is not a task of workflow.specification.tasks", et.ID)}
		}
		if seen[i] {
			return in.taskError(i, "workflow.execution.tasks", "listed twice; want one execution record per task")
		}
		seen[i] = true
		if err := in.setMeasures(i, et.RuntimeInSeconds, "runtimeInSeconds", et.CoreCount, "coreCount", et.Command); err != nil {
			return err
		}
	}
	for i, ok := range seen {
		if !ok {
			return in.taskError(i, "runtimeInSeconds", "missing: the task has no record in workflow.execution.tasks; want its measured run time in seconds")
		}
	}
	return nil
}

// read14 reads the flat layout of schema 1.4, where tasks are keyed by name.
func (in *Instance) read14(w *workflowJSON) error {
	if len(w.Tasks) == 0 {
		return &Error{Task: -1, Field: "workflow.tasks", Msg: "no tasks; want at least one (schema 1.4 keeps tasks in workflow.tasks)"}
	}
	if w.MakespanInSeconds != nil {
		in.MakespanSeconds = *w.MakespanInSeconds
	}
	pos, err := in.addTasks(len(w.Tasks), func(i int) (id, name string) { return w.Tasks[i].Name, w.Tasks[i].Name }, "name")
	if err != nil {
		return err
	}
	in.FileBytes = map[string]int64{}
	for i := range w.Tasks {
		ft, t := &w.Tasks[i], &in.Tasks[i]
		t.Category = ft.Category
		if t.Category == "" {
			t.Category = categoryFromName(ft.Name)
		}
		if err := in.setMeasures(i, ft.RuntimeInSeconds, "runtimeInSeconds", ft.Cores, "cores", ft.Command); err != nil {
			return err
		}
		for k, file := range ft.Files {
			field := fmt.Sprintf("files[%d]", k)
			if file.Name == "" {
				return in.taskError(i, field+".name", "empty; want a file name")
			}
			size, err := fileSize(file.SizeInBytes)
			if err != nil {
				return in.taskError(i, field+".sizeInBytes", "file %q: %v", file.Name, err)
			}
			if prev, ok := in.FileBytes[file.Name]; ok && prev != size {
				return in.taskError(i, field+".sizeInBytes", "file %q is %d bytes here and %d bytes in an earlier task; want one size per file", file.Name, size, prev)
			}
			in.FileBytes[file.Name] = size
			switch file.Link {
			case "input":
				t.InputFiles = append(t.InputFiles, file.Name)
			case "output":
				t.OutputFiles = append(t.OutputFiles, file.Name)
			default:
				return in.taskError(i, field+".link", "%q; want \"input\" or \"output\"", file.Link)
			}
		}
	}
	return in.link(pos, func(i int) ([]string, []string) { return w.Tasks[i].Parents, w.Tasks[i].Children })
}

// addTasks creates the tasks from their ids and names and returns the
// position of each id.
func (in *Instance) addTasks(n int, idName func(i int) (id, name string), idField string) (map[string]int, error) {
	in.Tasks = make([]Task, n)
	pos := make(map[string]int, n)
	for i := range in.Tasks {
		id, name := idName(i)
		in.Tasks[i].ID, in.Tasks[i].Name = id, name
		if id == "" {
			return nil, in.taskError(i, idField, "empty; want a task %s unique within the instance", idField)
		}
		if prev, dup := pos[id]; dup {
			return nil, in.taskError(i, idField, "duplicate of task %d; want unique task %ss", prev, idField)
		}
		pos[id] = i
	}
	return pos, nil
}

// link resolves parents and children into each task's Parents.
func (in *Instance) link(pos map[string]int, edges func(i int) (parents, children []string)) error {
	for i := range in.Tasks {
		parents, children := edges(i)
		for _, p := range parents {
			j, ok := pos[p]
			if !ok {
				return in.taskError(i, "parents", "names %q, which is not a task of this instance", p)
			}
			in.Tasks[i].Parents = append(in.Tasks[i].Parents, j)
		}
		for _, c := range children {
			j, ok := pos[c]
			if !ok {
				return in.taskError(i, "children", "names %q, which is not a task of this instance", c)
			}
			in.Tasks[j].Parents = append(in.Tasks[j].Parents, i)
		}
	}
	for i := range in.Tasks {
		t := &in.Tasks[i]
		slices.Sort(t.Parents)
		t.Parents = slices.Compact(t.Parents)
		if len(t.Parents) > 0 && slices.Contains(t.Parents, i) {
			return in.taskError(i, "parents", "names the task itself; a task cannot depend on itself")
		}
	}
	return nil
}

// setMeasures checks and sets a task's run time, core count and program.
func (in *Instance) setMeasures(i int, runtime *float64, runtimeField string, cores *float64, coresField string, cmd *commandJSON) error {
	t := &in.Tasks[i]
	switch {
	case runtime == nil:
		return in.taskError(i, runtimeField, "missing; want the task's measured run time in seconds (>= 0)")
	case math.IsNaN(*runtime) || math.IsInf(*runtime, 0) || *runtime < 0:
		return in.taskError(i, runtimeField, "%v; want a run time in seconds >= 0", *runtime)
	}
	t.RuntimeSeconds = *runtime
	if cores != nil {
		c := *cores
		if c != math.Trunc(c) || c < 1 || c > maxCoreCount {
			return in.taskError(i, coresField, "%v; want a whole number of cores in [1, %d]", c, maxCoreCount)
		}
		t.CoreCount = int(c)
	}
	if cmd != nil {
		t.Program = cmd.Program
	}
	return nil
}

// checkAcyclic refuses dependency cycles, naming the first task (in file
// order) on or behind one.
func (in *Instance) checkAcyclic() error {
	n := len(in.Tasks)
	indeg := make([]int, n)
	succ := make([][]int, n)
	for i := range in.Tasks {
		indeg[i] = len(in.Tasks[i].Parents)
		for _, p := range in.Tasks[i].Parents {
			succ[p] = append(succ[p], i)
		}
	}
	queue := make([]int, 0, n)
	for i, d := range indeg {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	for k := 0; k < len(queue); k++ {
		for _, s := range succ[queue[k]] {
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	for i, d := range indeg {
		if d > 0 {
			return in.taskError(i, "parents", "is part of a dependency cycle; parents and children must form a DAG")
		}
	}
	return nil
}

func (in *Instance) taskError(i int, field, format string, args ...any) error {
	return &Error{Task: i, TaskID: in.Tasks[i].ID, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// fileSize checks a sizeInBytes value: present, whole, >= 0, within int64.
func fileSize(v *float64) (int64, error) {
	if v == nil {
		return 0, errors.New("missing; want the file's size in bytes")
	}
	if *v != math.Trunc(*v) || *v < 0 || *v >= math.MaxInt64 {
		return 0, fmt.Errorf("%s; want a whole number of bytes >= 0", strconv.FormatFloat(*v, 'g', -1, 64))
	}
	return int64(*v), nil
}

// idSuffix is WfCommons' task-name suffix: "_ID" and digits.
var idSuffix = regexp.MustCompile(`_ID[0-9]+$`)

// categoryFromName returns the name without its "_ID<digits>" suffix.
func categoryFromName(name string) string {
	return idSuffix.ReplaceAllString(name, "")
}
