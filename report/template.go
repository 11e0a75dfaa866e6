package report

import "html/template"

// pageTemplate is the report page. It has no external references, so it
// opens offline; the figures are inline SVG.
var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"file": fileName}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sweep report</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 80em; color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2.2em; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.05em; margin-top: 1.6em; }
nav.toc { background: #f6f6f6; padding: 0.6em 1.2em; display: inline-block; }
nav.toc ol { margin: 0.3em 0; padding-left: 1.4em; } nav.toc > ol { columns: 2; column-gap: 3em; }
nav.toc li { break-inside: avoid; } nav.toc { font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.5em 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
td .ci, td .paper, td .diff { color: #666; font-size: 0.85em; }
td.far { background: #fde8e8; } td.far .mark { color: #b00; font-weight: bold; }
td .mark { color: #080; }
td.disagree { background: #fff4d6; } td.nowrap { white-space: nowrap; } td.name { text-align: left; }
td .ok { color: #080; font-weight: bold; } td.miss .no { color: #b00; font-weight: bold; }
.ns { font-weight: bold; }
figure { margin: 1.2em 0; } figcaption { font-weight: bold; margin-bottom: 0.3em; }
figure svg { max-width: 100%; height: auto; }
figure.half { display: inline-block; width: 48%; margin-right: 1.5%; vertical-align: top; }
.files { font-weight: normal; font-size: 0.85em; }
dl.defs dt { font-weight: bold; margin-top: 0.7em; } dl.defs dd { margin-left: 1.5em; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
` + provenanceStyle + `
</style>
</head>
<body>
<h1>sweep report: {{if .FairShare}}fair share, month by month{{else}}{{.Reference}} against every policy{{end}}</h1>
{{.Provenance}}
{{.Claims.Summary}}
<nav class="toc"><b>Contents</b><ol>
{{if .DAG}}<li><a href="#tables">Tables 3 and 4: dominance beside the paper</a></li>
<li><a href="#tests">Tests and effect sizes</a></li>
{{if .Spreads}}<li><a href="#replicates">Across {{.Replicates}} replicates</a></li>{{end}}
<li><a href="#means">Mean worst-case SLR by load</a></li>
{{if .Gantts}}<li><a href="#worst">Each policy's worst cell, as a Gantt chart</a></li>{{end}}
<li><a href="#figures">Figures</a><ol>{{range $i, $f := .Figures}}<li><a href="#figure-{{$i}}">{{$f.Title}}</a></li>{{end}}</ol></li>
{{end}}{{if .FigureTables}}<li><a href="#merit">Figures of merit of campaign workloads</a></li>{{end}}
{{if .CampaignFigures}}<li><a href="#campaign-figures">Campaign figures</a></li>{{end}}
{{if .MeasureFigures}}<li><a href="#measures">Measures by policy</a></li>
{{end}}{{if .NodeTables}}<li><a href="#nodes">Nodes: resources and partitions</a></li>
{{end}}{{if and .Gantts (not .DAG)}}<li><a href="#worst-cells">Each policy's worst cell, as a Gantt chart</a></li>
{{end}}{{if .AchievedLoads}}<li><a href="#achieved-load">Achieved offered load</a></li>
{{end}}{{if .FairShare}}<li><a href="#fair-share">Per-user fair-share deviation</a></li>{{end}}
{{if .Claims.Tables}}<li><a href="#claims">The papers' claims</a></li>{{end}}
{{if .DAG}}<li><a href="#definitions">Definitions of the statistics</a></li>{{end}}
<li><a href="#text">Text output of sweep analyze</a></li>
</ol></nav>
{{if .DAG}}
<h2 id="tables">Tables 3 and 4: dominance beside the paper</h2>
<p>Each cell gives our dominance percentage with its Wilson 95% interval (grey), then the paper's value and
the difference ours &minus; paper. A cell <b>agrees</b> (<span style="color:#080">&#10003;</span>) when the
paper's value lies inside our interval; red cells (&#10007;) are those where it does not.
<span class="ns">~</span> marks a difference that is not significant (paired t-test{{if .Holm}}, Holm-adjusted{{end}},
p &ge; {{.Alpha}}; for the paper: its text's reading of its bold cells). Definitions: <a href="#definitions">below</a>.</p>
{{range .Tables}}
<h3>{{.Title}} ({{.Metric}})</h3>
<table>
<tr><th>policy</th>{{range $.Loads}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td{{if .Far}} class="far"{{end}}>{{.Ours}}{{if .OursNS}}<span class="ns">~</span>{{end}}
<span class="ci">{{.Interval}}</span><br><span class="paper">paper {{.Paper}}{{if .PaperNS}}~{{end}}</span>
<span class="diff">{{.Diff}}</span>{{if .Compared}} <span class="mark">{{if .Far}}&#10007;{{else}}&#10003;{{end}}</span>{{end}}</td>{{end}}</tr>
{{end}}</table>
{{if .Summary}}<p>{{.Summary}}.</p>{{end}}
{{end}}
<h2 id="tests">Tests and effect sizes</h2>
<p>For each comparison of Tables 3 and 4: the p-value of the paired t-test (t, the paper's test) and of the
Wilcoxon signed-rank test (W){{if .Holm}}, both Holm-adjusted within each table{{end}}; yellow cells are those where
the two tests disagree at {{.Alpha}}. The ratio is the typical factor between {{.Reference}}'s value and the
policy's on one instance (the exponential of the median log ratio), with its bootstrap 95% interval; below 1,
{{.Reference}}'s value is smaller.</p>
{{range .Tests}}
<h3>{{.Title}} ({{.Metric}}): tests</h3>
<table>
<tr><th>policy</th>{{range $.Loads}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td{{if .Disagree}} class="disagree"{{end}}>t {{.T}} &middot; W {{.W}}<br>
ratio {{.Ratio}} <span class="ci">{{.RatioInterval}}</span></td>{{end}}</tr>
{{end}}</table>
<p>{{.Summary}}.</p>
{{end}}
{{if .Spreads}}<h2 id="replicates">Across {{.Replicates}} replicates</h2>
<p>The run holds {{.Replicates}} replicates, the whole experiment under as many root seeds; the tables above pool
them. Here each cell gives the dominance percentage in each replicate, their range and the t 95% interval of
their mean (grey): what drawing other instances alone moves. The paper's value is marked r when it lies in the
range and i when it lies in the interval (shown clipped to 0-100); red cells have neither.</p>
{{range .Spreads}}
<h3>{{.Title}} ({{.Metric}}) across replicates</h3>
<table>
<tr><th>policy</th>{{range $.Loads}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td class="nowrap{{if and .HasPaper (not .InRange) (not .InInterval)}} far{{end}}">{{.Values}}<br>
<span class="ci">range {{.Range}}</span>{{if .Interval}}<br><span class="ci">mean {{.Interval}}</span>{{end}}{{if .HasPaper}}<br><span class="paper">paper {{.Paper}}</span>
<span class="mark">{{if .InRange}}r{{end}}{{if .InInterval}}i{{end}}</span>{{end}}</td>{{end}}</tr>
{{end}}</table>
{{if .Summary}}<p>{{.Summary}}.</p>{{end}}
{{end}}{{end}}
<h2 id="means">Mean worst-case SLR by load (&plusmn; half-width of the 95% confidence interval)</h2>
<table>
<tr><th>policy</th>{{range .Loads}}<th>{{.}}</th>{{end}}</tr>
{{range .Means}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .Gantts}}<h2 id="worst">Each policy's worst cell, as a Gantt chart</h2>
<p>The cell with the largest worst-case SLR of each policy, simulated again from its identity (its metrics
equal its stored row) and drawn one bar per task on a lane of cores per cluster, over the life of the cell's
worst job (its arrival to its finish, a fifth wider on each side): that job in red, every other job in grey, time
in hours from the cell's start. <code>sweep report --gantt-full</code> draws the whole schedules.</p>
<table>
<tr><th>policy</th><th>cell</th><th>worst-case SLR</th><th>Gantt chart</th></tr>
{{range .Gantts}}<tr><td>{{.Policy}}</td><td class="name" title="{{.Cell}}">{{.Name}}</td><td>{{printf "%.4g" .Value}}</td><td><a href="{{.File}}">{{.File}}</a></td></tr>
{{end}}</table>
{{end}}
<h2 id="figures">Figures</h2>
<p>Box plots pool every cell of a policy (all loads and workloads), one box per policy as in the paper.
Cumulative completion is compared at each pair group's common base.</p>
{{range $i, $f := .Figures}}<figure id="figure-{{$i}}"><figcaption>{{$f.Title}} {{with $f.File}}<span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{$f.SVG}}</figure>
{{end}}
{{if not .DecileLoad}}<p>No job rows in this run, so no Fig. 7 (deciles).</p>{{end}}
{{end}}
{{if .FigureTables}}
<h2 id="merit">Figures of merit of campaign workloads (seeds 000, 001)</h2>
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
{{if .CampaignFigures}}<h2 id="campaign-figures">Campaign figures</h2>
<p>Stretch distributions: every campaign of every instance of the workload, pooled per policy; the curve's
height at 4 is the share of campaigns with stretch at most 4. Box plots: one value per user and instance,
quartiles by linear interpolation, whiskers at the most extreme values within 1.5 IQR.</p>
{{range $f := .CampaignFigures}}<figure><figcaption>{{$f.Title}} {{with $f.File}}<span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}{{end}}
{{if .NoCampaignRows}}<p>The run did not record the campaigns table (record.campaigns), so there are no
stretch distributions.</p>{{end}}
{{end}}
{{if .MeasureFigures}}<h2 id="measures">Measures by policy</h2>
{{range $f := .MeasureFigures}}<figure><figcaption>{{$f.Title}} {{with $f.File}}<span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}
{{end}}{{if .NodeTables}}<h2 id="nodes">Nodes: resources and partitions</h2>
<p>Cells on platforms of nodes (docs/nodes.md). Utilisation is the measured jobs' cores, memory or GPUs
held, times their run, over the machine's (or the partition's) from the jobs' first submit to their last
end; a resource the machine lacks is left out, one a partition lacks shown as -.</p>
{{range .NodeTables}}<h3>{{.Title}}</h3>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{range $f := .NodeFigures}}<figure><figcaption>{{$f.Title}} {{with $f.File}}<span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}
{{end}}{{if and .Gantts (not .DAG)}}<h2 id="worst-cells">Each policy's worst cell, as a Gantt chart</h2>
<p>The cell with the largest mean bounded slowdown of each policy, simulated again from its identity (its
measures equal its stored row) and drawn with a lane per partition, a row per node and a job a bar on each
node it held, as high as the cores it held there, over the life of the cell's worst job (largest slowdown; its
arrival to its finish, a fifth wider on each side): that job in red, every other job in grey, time in hours
from the cell's start. <code>sweep report --gantt-full</code> draws the whole schedules.</p>
<table>
<tr><th>policy</th><th>cell</th><th>mean bounded slowdown</th><th>Gantt chart</th></tr>
{{range .Gantts}}<tr><td>{{.Policy}}</td><td class="name" title="{{.Cell}}">{{.Name}}</td><td>{{printf "%.4g" .Value}}</td><td><a href="{{.File}}">{{.File}}</a></td></tr>
{{end}}</table>
{{end}}{{if .AchievedLoads}}<h2 id="achieved-load">Achieved offered load</h2>
<p>Per target load, the smallest and largest offered load the load rule achieved over the cells (the
measured jobs' processor-seconds over the machine's in their span, submit times in whole seconds);
OFF when a cell is more than 0.5% from the target.</p>
<table><tr><th>load</th><th>cells</th><th>min</th><th>max</th><th>check</th></tr>
{{range .AchievedLoads}}<tr><td>{{.Load}}</td><td>{{.Cells}}</td><td>{{.Min}}</td><td>{{.Max}}</td><td{{if .Off}} style="color:#c00"{{end}}>{{.Check}}</td></tr>
{{end}}</table>
{{end}}{{if .FairShare}}<h2 id="fair-share">Per-user fair-share deviation (seed 003)</h2>
<p>For each trace month and estimate variant, the dev of the month's five highest-demand users under each
policy: processor-hours held minus the water-filling entitlement, integrated over the month; positive is
over-share.</p>
{{if .NoUserRows}}<p>The run did not record the users table (record.users), so there are no per-user bars.</p>{{end}}
{{range $f := .FairShareFigures}}<figure{{if $f.Half}} class="half"{{end}}><figcaption>{{$f.Title}} {{with $f.File}}<span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}{{end}}
{{.Claims.Tables}}
{{if .DAG}}<h2 id="definitions">Definitions of the statistics</h2>
<dl class="defs">
<dt>Pairs</dt><dd>Cells that differ only by policy (same workload instance, load and platform) form a pair
group; every comparison of {{.Reference}} with a policy is over the groups that have both.</dd>
<dt>Dominance</dt><dd>The percentage of pairs in which {{.Reference}} is at least as good as the policy
(lower SLR, higher utilisation; ties count for {{.Reference}}), as in seed 004.</dd>
<dt>Wilson 95% interval</dt><dd>For k wins of n pairs, p = k/n, z = 1.96:
(2np + z&sup2; &plusmn; z&radic;(4np(1&minus;p) + z&sup2;)) / (2(n + z&sup2;)), with 0 at k = 0 and 100% at k = n
(scipy's binomtest(k, n).proportion_ci(method='wilson')). Unlike a fixed tolerance, its width follows the
sampling noise: about &plusmn;8 points near 50% over 150 pairs, under 3 points near 100%.</dd>
<dt>Agreement with the paper</dt><dd>The paper's value lies inside our Wilson interval (bounds included).</dd>
<dt>Paired t-test (t)</dt><dd>t = mean(d) / (sd(d) / &radic;n) over the differences d = {{.Reference}} &minus; policy,
two-sided, n &minus; 1 degrees of freedom: the paper's test, and the one that decides <span class="ns">~</span>.</dd>
<dt>Wilcoxon signed-rank test (W)</dt><dd>Zero differences dropped; the others ranked by |d| (ties share
their average rank); T = min(R+, R&minus;), the smaller sum of the ranks of the positive and the negative
differences. Exact null distribution when there are at most 50 pairs and no ties or zeros; otherwise
z = (T &minus; n(n+1)/4) / &sigma;, &sigma;&sup2; = (n(n+1)(2n+1) &minus; &frac12;&Sigma;t(t&sup2;&minus;1)) / 24 over
the groups of t tied |d|, without continuity correction; two-sided (scipy 1.10's wilcoxon defaults). It
uses the signs and ranks of the differences, so it keeps its power on differences spanning orders of
magnitude, where the t-test's standard deviation swamps its mean.</dd>
<dt>Effect size (ratio)</dt><dd>The median over pairs of ln({{.Reference}} / policy), shown as its exponential,
a factor; pairs with a value &le; 0 are left out. Its 95% interval is the percentile bootstrap over
{{.Resamples}} resamples of the pairs, drawn from a seed derived from the comparison (metric, load,
reference, policy), so the report is the same on every run.</dd>
{{if .Holm}}<dt>Holm adjustment</dt><dd>Within each table (all policies and loads of one metric), the m
defined p-values sorted ascending, p(i) becomes max over j &le; i of min(1, (m &minus; j + 1) p(j)); significance
is read from the adjusted values.</dd>{{end}}
<dt>Mean &plusmn; half-width</dt><dd>Student t 95% interval of the mean: mean &plusmn; t(n&minus;1, 0.975) &middot; s / &radic;n.</dd>
<dt>Box plots</dt><dd>Quartiles by linear interpolation (numpy's default), whiskers at the most extreme values
within 1.5 IQR of the box, points beyond them drawn as outliers.</dd>
</dl>{{end}}
<h2 id="text">Text output of sweep analyze</h2>
<pre>{{.Notes}}</pre>
</body>
</html>
`))
