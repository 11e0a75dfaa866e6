package report

// A GanttLink points the report at the Gantt chart of a policy's worst
// cell: File is the chart's path relative to the report's directory.
type GanttLink struct {
	Policy string
	// Cell and Name identify the cell (its id and readable name); Value
	// is its worst-case SLR.
	Cell, Name string
	Value      float64
	File       string
}
