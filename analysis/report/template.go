package report

import "html/template"

// pageTemplate is the report page. It has no external references, so it
// opens offline; the figures are inline SVG.
var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sweep report</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 72em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; }
table { border-collapse: collapse; margin: 0.5em 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td .paper { color: #666; } td .diff { color: #666; font-size: 0.85em; }
td.far .diff { color: #b00; font-weight: bold; }
td .ok { color: #080; font-weight: bold; } td.miss .no { color: #b00; font-weight: bold; }
.ns { font-weight: bold; }
.figures { display: flex; flex-wrap: wrap; gap: 1.5em; }
figure { margin: 0; } figcaption { font-weight: bold; margin-bottom: 0.3em; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
</style>
</head>
<body>
<h1>sweep report: {{if .FairShare}}fair share, month by month{{else}}{{.Reference}} against every policy{{end}}</h1>
{{if .DAG}}<p>Paired t-tests at alpha {{.Alpha}}. In the tables, each cell gives our dominance percentage,
the paper's (grey) and the difference; <span class="ns">~</span> marks a difference that is not
significant (for the paper: its text's reading of its bold cells); red differences exceed 10 points.</p>
{{range .Tables}}
<h2>{{.Title}} ({{.Metric}})</h2>
<table>
<tr><th>policy</th>{{range $.Loads}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td{{if .Far}} class="far"{{end}}>{{.Ours}}{{if .OursNS}}<span class="ns">~</span>{{end}}
<span class="paper">/ {{.Paper}}{{if .PaperNS}}~{{end}}</span> <span class="diff">{{.Diff}}</span></td>{{end}}</tr>
{{end}}</table>
{{if .Summary}}<p>{{.Summary}}.</p>{{end}}
{{end}}
<h2>Mean worst-case SLR by load (± half-width of the 95% confidence interval)</h2>
<table>
<tr><th>policy</th>{{range .Loads}}<th>{{.}}</th>{{end}}</tr>
{{range .Means}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<h2>Figures</h2>
<p>Box plots pool every cell of a policy (all loads and workloads), one box per policy as in the paper:
quartiles by linear interpolation (numpy's default), whiskers at the most extreme values within 1.5 IQR,
points beyond them drawn as outliers. Cumulative completion is compared at each pair group's common base.</p>
<div class="figures">
{{range .Figures}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
{{end}}</div>
{{if not .DecileLoad}}<p>No job rows in this run, so no Fig. 7 (deciles).</p>{{end}}
{{end}}
{{if .FigureTables}}
<h2>Figures of merit of campaign workloads (seeds 000, 001)</h2>
<p>Each cell gives our mean over the workload's instances (± half-width of the 95% confidence interval,
with two instances or more), the paper's value from the manifest (grey) and <span class="ok">ok</span>
when ours satisfies it: a bound such as "&lt; 1.4", or a number within 10% of it (a share, a fraction
of the campaigns, also within 0.02), or within the tolerance the manifest states ("6.3 ± 0.5").
Trimmed statistics leave out the campaigns with stretch &gt; 1000, as seed 000 does.</p>
{{range .FigureTables}}
<h3>Workload {{.Workload}} ({{.Instances}} instance{{if ne .Instances 1}}s{{end}})</h3>
<table>
<tr><th>figure</th>{{range .Policies}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td title="{{.Metric}}">{{.Label}}</td>{{range .Cells}}<td{{if .Miss}} class="miss"{{end}}>{{.Ours}}
{{if .Paper}}<span class="paper">/ {{.Paper}}</span> <span class="{{.Mark}}">{{.Mark}}</span>{{end}}</td>{{end}}</tr>
{{end}}</table>
{{if .Summary}}<p>{{.Summary}}.</p>{{end}}
{{end}}
{{if .CampaignFigures}}<h2>Campaign figures</h2>
<p>Stretch distributions: every campaign of every instance of the workload, pooled per policy; the curve's
height at 4 is the share of campaigns with stretch at most 4. Box plots: one value per user and instance,
quartiles by linear interpolation, whiskers at the most extreme values within 1.5 IQR.</p>
<div class="figures">
{{range .CampaignFigures}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
{{end}}</div>{{end}}
{{if .NoCampaignRows}}<p>The run did not record the campaigns table (record.campaigns), so there are no
stretch distributions.</p>{{end}}
{{end}}
{{if .FairShare}}<h2>Per-user fair-share deviation (seed 003)</h2>
<p>For each trace month and estimate variant, the dev of the month's five highest-demand users under each
policy: processor-hours held minus the water-filling entitlement, integrated over the month; positive is
over-share.</p>
{{if .NoUserRows}}<p>The run did not record the users table (record.users), so there are no per-user bars.</p>{{end}}
<div class="figures">
{{range .FairShareFigures}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
{{end}}</div>{{end}}
<h2>Text output of sweep analyze</h2>
<pre>{{.Notes}}</pre>
</body>
</html>
`))
