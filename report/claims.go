package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"

	"github.com/sweep-sched/sweep/analysis/fidelity"
)

// studyClaims are the claims of one study, in the order analyze checks
// them.
type studyClaims struct {
	Study, Summary string
	Claims         []fidelity.Claim
}

// byStudy groups claims by study, in the order the studies first appear.
func byStudy(claims []fidelity.Claim) []studyClaims {
	var out []studyClaims
	for _, c := range claims {
		if len(out) == 0 || out[len(out)-1].Study != c.Study {
			out = append(out, studyClaims{Study: c.Study})
		}
		out[len(out)-1].Claims = append(out[len(out)-1].Claims, c)
	}
	for i := range out {
		out[i].Summary = fidelity.Summary(out[i].Claims)
	}
	return out
}

// oursText returns our value with its 95% interval, when there is one,
// or "-" without a value.
func oursText(c fidelity.Claim) string {
	if c.Ours == "" {
		return "-"
	}
	if !c.HasInterval() {
		return c.Ours
	}
	return fmt.Sprintf("%s [%.4g, %.4g]", c.Ours, c.Low, c.High)
}

// PrintClaims writes the status of every claim, one study after another:
// a summary line, then per claim its status, id, the paper's value and
// ours with its 95% interval, and on the next line the reason and the
// section of docs/fidelity.md that investigates it.
func PrintClaims(w io.Writer, claims []fidelity.Claim) error {
	p := &printer{w: w}
	for i, s := range byStudy(claims) {
		if i > 0 {
			p.line("")
		}
		p.line("The papers' claims, %s: %s", s.Study, s.Summary)
		for _, c := range s.Claims {
			p.line("%-14s %s: paper %s, ours %s", c.Status.Words(), c.ID, c.Paper, oursText(c))
			if c.Reason != "" {
				reason := c.Reason
				if c.Section != "" {
					reason += " (docs/fidelity.md#" + c.Section + ")"
				}
				p.line("%-14s %s", "", reason)
			}
		}
	}
	return p.err
}

// claimsHTML is the claims on a report page: Summary a line for the first
// screen, linking to Tables, the collapsed block near the page's end.
type claimsHTML struct {
	Summary, Tables template.HTML
}

// renderClaims renders claims as the first screen's summary line and one
// table per study (claim, paper, ours with its interval, status, reason
// with a link to its section of docs/fidelity.md); empty without claims.
func renderClaims(claims []fidelity.Claim) (claimsHTML, error) {
	if len(claims) == 0 {
		return claimsHTML{}, nil
	}
	type row struct {
		fidelity.Claim
		Words, Ours, URL string
	}
	type study struct {
		Study, Summary string
		Rows           []row
	}
	var studies []study
	for _, s := range byStudy(claims) {
		st := study{Study: s.Study, Summary: s.Summary}
		for _, c := range s.Claims {
			r := row{Claim: c, Words: c.Status.Words(), Ours: oursText(c)}
			if c.Section != "" {
				r.URL = fidelity.SectionURL(c.Section)
			}
			st.Rows = append(st.Rows, r)
		}
		studies = append(studies, st)
	}
	data := struct {
		Summary string
		Studies []study
	}{fidelity.Summary(claims), studies}
	var summary, tables bytes.Buffer
	if err := claimsSummaryTemplate.Execute(&summary, data); err != nil {
		return claimsHTML{}, fmt.Errorf("rendering the claims: %w", err)
	}
	if err := claimsTablesTemplate.Execute(&tables, data); err != nil {
		return claimsHTML{}, fmt.Errorf("rendering the claims: %w", err)
	}
	return claimsHTML{Summary: template.HTML(summary.String()), Tables: template.HTML(tables.String())}, nil
}

var claimsSummaryTemplate = template.Must(template.New("claims-summary").Parse(
	`<p class="claims-summary"><b>The papers' claims:</b> {{.Summary}} (<a href="#claims">the claims, one by one</a>)</p>`))

// claimsTablesTemplate is the claims block: collapsed, its counts in its
// summary, so that the page opens on figures and tables (a study checks
// over a hundred claims: 9,400 px open).
var claimsTablesTemplate = template.Must(template.New("claims").Parse(`<details class="claims" id="claims"><summary><h2>The papers' claims: {{.Summary}}</h2> (click to show the claims one by one)</summary>
<p>Each claim of the papers that <code>sweep analyze</code> checks. <b>holds</b>: ours satisfies the paper's
value or bound (for a dominance percentage, the paper's value inside our Wilson 95% interval; for a figure
of merit, the manifest's bound or tolerance). <b>explained</b>: it does not hold, and the investigation of
docs/fidelity.md found the cause given. <b>does not hold</b>: it does not hold, with the investigation's
verdict where there is one. <b>not checkable</b>: the run cannot decide it, with why.</p>
<style>
details.claims > summary { cursor: pointer; margin-top: 2.2em; color: #555; } details.claims > summary h2 { display: inline; border: none; color: #222; }
table.claims td { text-align: left; } table.claims td.status { white-space: nowrap; font-weight: bold; }
table.claims .id { color: #666; font-size: 0.85em; }
tr.holds td.status { color: #080; } tr.explained td.status { color: #a60; }
tr.does-not-hold td.status { color: #b00; } tr.not-checkable td.status { color: #666; }
</style>
{{range .Studies}}<h3>{{.Study}}: {{.Summary}}</h3>
<table class="claims">
<tr><th>claim</th><th>paper</th><th>ours (95% interval)</th><th>status</th><th>reason</th></tr>
{{range .Rows}}<tr class="{{.Status}}"><td>{{.Text}}<br><span class="id">{{.ID}}</span></td><td>{{.Paper}}</td><td>{{.Ours}}</td>
<td class="status">{{.Words}}</td><td>{{.Reason}}{{if .ReproducedBy}}; reproduced by <code>{{.ReproducedBy}}</code>{{end}}{{if .URL}} <a href="{{.URL}}">docs/fidelity.md#{{.Section}}</a>{{end}}</td></tr>
{{end}}</table>
{{end}}</details>`))
