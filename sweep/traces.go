package sweep

// A TraceReport is what reading one trace workload of a manifest dropped,
// filtered, repaired and noted.
type TraceReport struct {
	Workload string // the workload's label
	Report   string
}

// TraceReports returns the reports of the manifest's trace workloads, in
// manifest order.
func (m *Manifest) TraceReports() []TraceReport {
	var out []TraceReport
	for i, rs := range m.sources {
		if r := rs.source.Report(); r != "" {
			out = append(out, TraceReport{Workload: m.Workloads[i].Label, Report: r})
		}
	}
	return out
}
