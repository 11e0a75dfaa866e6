package store

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Type is the type of a column.
type Type int

// The column types. Ticks, counts and ids are TypeInt64, metrics
// TypeFloat64, names TypeString; a value that is a list of numbers (the
// outliers of a box plot) is TypeFloat64List, a Parquet list<double>, so
// readers get a list per row instead of a string to split.
const (
	TypeInt64 Type = iota + 1
	TypeFloat64
	TypeString
	TypeFloat64List
)

// String returns the type's name as used in error messages.
func (t Type) String() string {
	switch t {
	case TypeInt64:
		return "int64"
	case TypeFloat64:
		return "float64"
	case TypeString:
		return "string"
	case TypeFloat64List:
		return "list<float64>"
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// Column describes one column of a table.
type Column struct {
	Name string
	Type Type
	// Nullable columns accept Null values, e.g. the metrics and error of a
	// failed cell.
	Nullable bool
	// Categories, for a string column, are the values it is expected to
	// hold in their stated order (a manifest's policies): every row
	// group's dictionary starts with them, used or not, so a reader that
	// keeps the Parquet dictionary (pandas through pyarrow: a Categorical)
	// sees them in this order, and the order is also written into each
	// file's metadata under CategoriesKey for readers that do not.
	// Values outside the list are allowed and follow them in the order
	// they come.
	Categories []string
}

// CategoriesKey is the file metadata key listing the Categories of a
// table's columns: a JSON object from column name to the list of values
// in order, e.g. {"policy":["pslr","srtf"]}. It is absent when no column
// states categories.
const CategoriesKey = "sweep.categories"

// Schema describes a table: its name, which is also its directory under the
// results directory, and its columns in order.
type Schema struct {
	Table   string
	Columns []Column
}

// Validate checks that the schema can name a directory and a Parquet file's
// columns unambiguously.
func (s Schema) Validate() error {
	if err := CheckName(s.Table); err != nil {
		return fmt.Errorf("store: table name: %w", err)
	}
	if len(s.Columns) == 0 {
		return fmt.Errorf("store: table %q: no columns; a schema needs at least one", s.Table)
	}
	seen := make(map[string]int, len(s.Columns))
	for i, c := range s.Columns {
		if c.Name == "" {
			return fmt.Errorf("store: table %q: column %d has an empty name", s.Table, i)
		}
		if j, dup := seen[c.Name]; dup {
			return fmt.Errorf("store: table %q: column %d (%q) repeats the name of column %d", s.Table, i, c.Name, j)
		}
		seen[c.Name] = i
		if c.Type < TypeInt64 || c.Type > TypeFloat64List {
			return fmt.Errorf("store: table %q: column %q has type %v; valid types are int64, float64, string, list<float64>", s.Table, c.Name, c.Type)
		}
		if len(c.Categories) > 0 && c.Type != TypeString {
			return fmt.Errorf("store: table %q: column %q has categories but type %v; only string columns have categories", s.Table, c.Name, c.Type)
		}
		for j, v := range c.Categories {
			if slices.Index(c.Categories, v) != j {
				return fmt.Errorf("store: table %q: column %q: category %q is listed twice; list each value once", s.Table, c.Name, v)
			}
		}
	}
	return nil
}

// CheckName accepts names that are safe as one path element and as part of
// a part file's name, and that are not hidden (hidden names mark temporary
// files).
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("empty; use letters, digits, '.', '_' or '-'")
	}
	if name[0] == '.' || name[0] == '-' {
		return fmt.Errorf("%q starts with %q; start with a letter, digit or '_'", name, name[0])
	}
	if i := strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}); i >= 0 {
		return fmt.Errorf("%q has %q at byte %d; use letters, digits, '.', '_' or '-'", name, name[i], i)
	}
	return nil
}

// Value is one cell of a row: an int64, a float64, a string, a list of
// float64, or null. The zero Value is null.
type Value struct {
	typ Type // 0 for null
	// i holds an int64, or a float64's bits: a job row holds eleven
	// values and a run writes millions of rows, so every byte of Value
	// counts (a float field and a slice took it from 40 to 64 bytes and
	// seed 004's run from 54 to 56 s of CPU).
	i int64
	s string
	l *[]float64 // a list's values
}

// Row is one row of a table, a Value per column in schema order.
type Row []Value

// Int64 returns an int64 value.
func Int64(v int64) Value { return Value{typ: TypeInt64, i: v} }

// Float64 returns a float64 value. NaN is stored as NaN; use Null for a
// missing metric.
func Float64(v float64) Value { return Value{typ: TypeFloat64, i: int64(math.Float64bits(v))} }

// String returns a string value.
func String(v string) Value { return Value{typ: TypeString, s: v} }

// Float64List returns a list value; the list is not copied, so the caller
// must not change it while the value is in use. An empty list is a value,
// not null.
func Float64List(v []float64) Value {
	if v == nil {
		v = []float64{}
	}
	return Value{typ: TypeFloat64List, l: &v}
}

// float returns a float64 value.
func (v Value) float() float64 { return math.Float64frombits(uint64(v.i)) }

// list returns a list value's values; nil for a value of another type.
func (v Value) list() []float64 {
	if v.l == nil {
		return nil
	}
	return *v.l
}

// Null returns the missing value, accepted by nullable columns only.
func Null() Value { return Value{} }

// IsNull reports whether v is the missing value.
func (v Value) IsNull() bool { return v.typ == 0 }

// Any returns v as an int64, float64, string or []float64, or nil when
// null.
func (v Value) Any() any {
	switch v.typ {
	case TypeInt64:
		return v.i
	case TypeFloat64:
		return v.float()
	case TypeString:
		return v.s
	case TypeFloat64List:
		return v.list()
	}
	return nil
}

// Equal reports whether v and w are the same value; NaN equals NaN, as a
// stored NaN is the same measure as a recomputed one, and lists are equal
// element by element under the same rule.
func (v Value) Equal(w Value) bool {
	if v.typ != w.typ {
		return false
	}
	switch v.typ {
	case TypeFloat64:
		return sameFloat(v.float(), w.float())
	case TypeFloat64List:
		return slices.EqualFunc(v.list(), w.list(), sameFloat)
	}
	return v.i == w.i && v.s == w.s
}

// sameFloat is == but for NaN, which equals NaN.
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// formatList renders a list as [x, y], each number with the fewest digits
// that read back to the same float64.
func formatList(l []float64) string {
	parts := make([]string, len(l))
	for i, x := range l {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// String renders v as it would be written: a number, a string, or null.
func (v Value) String() string {
	switch v.typ {
	case TypeInt64:
		return strconv.FormatInt(v.i, 10)
	case TypeFloat64:
		return strconv.FormatFloat(v.float(), 'g', -1, 64)
	case TypeString:
		return v.s
	case TypeFloat64List:
		return formatList(v.list())
	}
	return "null"
}

// Describe renders v with its type, for error messages.
func (v Value) Describe() string {
	switch v.typ {
	case TypeInt64:
		return "int64 " + strconv.FormatInt(v.i, 10)
	case TypeFloat64:
		if math.IsNaN(v.float()) {
			return "float64 NaN"
		}
		return "float64 " + strconv.FormatFloat(v.float(), 'g', -1, 64)
	case TypeString:
		return "string " + strconv.Quote(v.s)
	case TypeFloat64List:
		return "list<float64> " + formatList(v.list())
	}
	return "null"
}

// CheckRow reports the first value of row that its column does not accept.
func (s Schema) CheckRow(row Row) error {
	if len(row) != len(s.Columns) {
		return fmt.Errorf("store: table %q: row has %d values; the schema has %d columns", s.Table, len(row), len(s.Columns))
	}
	// Pointers, not copies of 40-byte values and 56-byte columns: a run
	// checks every value of 24 million job rows.
	for i := range row {
		v, c := &row[i], &s.Columns[i]
		if v.typ == c.Type || v.typ == 0 && c.Nullable {
			continue
		}
		want := c.Type.String()
		if c.Nullable {
			want += " or null"
		}
		return fmt.Errorf("store: table %q: column %q: got %s; want %s", s.Table, c.Name, v.Describe(), want)
	}
	return nil
}

// Type returns the type of v, or 0 when v is null.
func (v Value) Type() Type { return v.typ }

// AsInt64 returns an int64 value; 0 for a value of another type.
func (v Value) AsInt64() int64 {
	if v.typ != TypeInt64 {
		return 0
	}
	return v.i
}

// AsFloat64 returns a float64 value; 0 for a value of another type.
func (v Value) AsFloat64() float64 {
	if v.typ != TypeFloat64 {
		return 0
	}
	return v.float()
}

// AsString returns a string value; "" for a value of another type.
func (v Value) AsString() string { return v.s }

// AsFloat64List returns a list value's values; nil for a value of another
// type. The list is not copied.
func (v Value) AsFloat64List() []float64 { return v.list() }
