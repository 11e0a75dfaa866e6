package store

import "fmt"

// Columns are rows of a table held a column at a time, as a model builds
// the thousands of job rows of one cell: a column is one slice of its
// field's type, where a Row holds a 40-byte Value per field, and the
// writer copies each column into its builder in bulk. Columns hold no
// nulls and no lists.
type Columns struct {
	// Len is the number of rows.
	Len int
	// Fields holds a column per column of the table's schema, in order.
	Fields []ColumnValues
}

// ColumnValues are the values of one field: the slice of the field's type
// holds Len values and the others are nil.
type ColumnValues struct {
	Int64   []int64
	Float64 []float64
	String  []string
}

// Row returns row i as a Row, for tests and printing.
func (c *Columns) Row(i int) Row {
	row := make(Row, len(c.Fields))
	for f, col := range c.Fields {
		switch {
		case col.Int64 != nil:
			row[f] = Int64(col.Int64[i])
		case col.Float64 != nil:
			row[f] = Float64(col.Float64[i])
		case col.String != nil:
			row[f] = String(col.String[i])
		}
	}
	return row
}

// A Child is one cell's rows of a child table: Rows, or Columns for a
// table of many rows per cell (jobs). The zero Child has no rows.
type Child struct {
	Rows    []Row
	Columns *Columns
}

// Row returns row i.
func (c Child) Row(i int) Row {
	if c.Columns != nil {
		return c.Columns.Row(i)
	}
	return c.Rows[i]
}

// Len returns the number of rows.
func (c Child) Len() int {
	if c.Columns != nil {
		return c.Columns.Len
	}
	return len(c.Rows)
}

// CheckColumns reports the first column of c that does not fit s.
func (s Schema) CheckColumns(c *Columns) error {
	if len(c.Fields) != len(s.Columns) {
		return fmt.Errorf("store: table %q: columns has %d fields; the schema has %d columns", s.Table, len(c.Fields), len(s.Columns))
	}
	for i := range c.Fields {
		f, col := &c.Fields[i], &s.Columns[i]
		var got Type
		n, held := 0, 0
		if f.Int64 != nil {
			got, n, held = TypeInt64, len(f.Int64), held+1
		}
		if f.Float64 != nil {
			got, n, held = TypeFloat64, len(f.Float64), held+1
		}
		if f.String != nil {
			got, n, held = TypeString, len(f.String), held+1
		}
		switch {
		case held != 1:
			return fmt.Errorf("store: table %q: column %q: %d of Int64, Float64 and String set; want the one of its type, %s", s.Table, col.Name, held, col.Type)
		case got != col.Type:
			return fmt.Errorf("store: table %q: column %q: got %s values; want %s", s.Table, col.Name, got, col.Type)
		case n != c.Len:
			return fmt.Errorf("store: table %q: column %q: %d values; want Len = %d", s.Table, col.Name, n, c.Len)
		}
	}
	return nil
}
