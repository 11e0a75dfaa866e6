package parquet

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sweep-sched/sweep/store"
)

// arrowSchema returns s's Arrow schema written to Parquet, carrying the
// file metadata in a fixed (sorted) key order.
func arrowSchema(s store.Schema, meta arrow.Metadata) *arrow.Schema {
	fields := make([]arrow.Field, len(s.Columns))
	for i, c := range s.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: arrowType(c.Type), Nullable: c.Nullable}
	}
	return arrow.NewSchema(fields, &meta)
}

var (
	stringDictionary = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	// float64List holds no null elements: a list is a value, a missing
	// list is a null row.
	float64List = arrow.ListOfNonNullable(arrow.PrimitiveTypes.Float64)
)

func arrowType(t store.Type) arrow.DataType {
	switch t {
	case store.TypeInt64:
		return arrow.PrimitiveTypes.Int64
	case store.TypeFloat64:
		return arrow.PrimitiveTypes.Float64
	case store.TypeFloat64List:
		return float64List
	default:
		return stringDictionary
	}
}
