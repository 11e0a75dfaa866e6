package moldable

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// knapsackExactTable is knapsackExact as first written: every entry of
// the exact-capacity table computed, the oracle of the faster one.
func knapsackExactTable(items []Item, m int) []int {
	cols := m + 1
	table := make([]float64, (len(items)+1)*cols)
	for c := 1; c < cols; c++ {
		table[c] = math.Inf(-1)
	}
	for a, it := range items {
		prev, cur := table[a*cols:(a+1)*cols], table[(a+1)*cols:(a+2)*cols]
		for c := range cols {
			cur[c] = prev[c]
			if c >= it.Processors {
				cur[c] = max(cur[c], prev[c-it.Processors]+it.Value)
			}
		}
	}
	last := table[len(items)*cols:]
	c := 0
	for cc := range cols {
		if last[cc] > last[c] {
			c = cc
		}
	}
	var selected []int
	for a := len(items) - 1; a >= 0; a-- {
		if table[(a+1)*cols+c] == table[a*cols+c] {
			continue
		}
		selected = append(selected, a)
		c -= items[a].Processors
	}
	slices.Reverse(selected)
	return selected
}

// TestKnapsackExactIsTheTable: on random items, with small integer values
// (many ties) and continuous ones, sizes from 1 to m, the selection is
// the full table's, in a table reused from call to call.
func TestKnapsackExactIsTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 27))
	var table []float64 // reused, as Select does
	for trial := range 500 {
		m := 1 + rng.IntN(40)
		items := make([]Item, rng.IntN(60))
		for a := range items {
			items[a].Processors = 1 + rng.IntN(m)
			if trial%3 == 0 {
				items[a].Processors = 1 + rng.IntN(min(m, 3))
			}
			items[a].Value = float64(1 + rng.IntN(4))
			if trial%2 == 1 {
				items[a].Value = 1 + 9*rng.Float64()
			}
		}
		var got []int
		got, table = knapsackExact(items, m, table)
		want := knapsackExactTable(items, m)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (m %d, %d items): selected %v, the table %v", trial, m, len(items), got, want)
		}
	}
}
