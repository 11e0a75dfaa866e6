package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
)

// PrintProvenance writes the provenance block that opens the text of
// `sweep analyze`: one "label: value" line per entry, and a warning
// line first when the analysis is partial.
func PrintProvenance(w io.Writer, p *analysis.Provenance) error {
	var b strings.Builder
	if p.Partial {
		fmt.Fprintf(&b, "PARTIAL ANALYSIS of an unfinished run: %s\n", incompleteText(p))
	}
	for _, l := range p.Lines() {
		fmt.Fprintf(&b, "%-33s %s\n", l.Label+":", l.Value)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// incompleteText names the incomplete workloads with their cells done
// and planned.
func incompleteText(p *analysis.Provenance) string {
	var parts []string
	for _, w := range p.Incomplete() {
		parts = append(parts, fmt.Sprintf("%s %d of %d cells", w.Workload, w.Done, w.Planned))
	}
	return "incomplete workloads " + strings.Join(parts, ", ")
}

var provenanceTemplate = template.Must(template.New("provenance").Parse(`{{if .Partial}}<div class="partial"><b>Partial analysis</b> of an unfinished run: {{.Incomplete}}. Every table and figure below leaves their missing cells out.</div>
{{end}}<details class="provenance"><summary><b>Provenance:</b> {{.Headline}}</summary>
<table class="provenance">
{{range .Lines}}<tr><th>{{.Label}}</th><td>{{.Value}}</td></tr>
{{end}}</table></details>
`))

// provenanceStyle is the CSS of the provenance block, shared by every
// report page.
const provenanceStyle = `details.provenance > summary { cursor: pointer; color: #444; margin: 0.5em 0; }
table.provenance { font-size: 0.85em; margin: 0.8em 0 1.2em; }
table.provenance th { text-align: left; font-weight: normal; color: #555; background: #f6f6f6; }
table.provenance td { text-align: left; font-family: monospace; word-break: break-all; }
div.partial { background: #fde8e8; border: 2px solid #b00; padding: 0.6em 1em; margin: 0.8em 0; }`

// provenanceHeadline is the one line the collapsed provenance block
// shows: the experiment, its cells and what ran it.
func provenanceHeadline(p *analysis.Provenance) string {
	done, failed, planned := p.Totals()
	cells := fmt.Sprintf("%d cells", done)
	if p.PlanKnown {
		cells = fmt.Sprintf("%d of %d cells", done, planned)
	}
	if failed > 0 {
		cells += fmt.Sprintf(" (%d failed)", failed)
	}
	return fmt.Sprintf("%s, %s, root seed %s, run by sweep %s (click for the manifest's hash, versions and run time)",
		p.Experiment, cells, cmp.Or(p.RootSeed, "unknown"), strings.Join(p.SweepVersions, ", "))
}

// provenanceHTML renders the provenance block of a report page: its
// headline, the table collapsed; "" for none.
func provenanceHTML(p *analysis.Provenance) (template.HTML, error) {
	if p == nil {
		return "", nil
	}
	var b bytes.Buffer
	err := provenanceTemplate.Execute(&b, struct {
		Partial    bool
		Incomplete string
		Headline   string
		Lines      []analysis.ProvenanceLine
	}{p.Partial, incompleteText(p), provenanceHeadline(p), p.Lines()})
	return template.HTML(b.String()), err
}
