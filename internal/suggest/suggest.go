// Package suggest finds, for a mistyped name, the valid name it was most
// likely meant to be ("did you mean"), so that every message about an
// unknown key, policy or format offers one the same way.
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the valid name nearest to got by edit distance
// (insertions, deletions, substitutions and swaps of neighbours, letter
// case ignored), or "" when none is close enough to be a typo: at most
// one edit for names of up to four letters, two up to eight, three
// beyond. Ties go to the first in valid's order.
func Closest(got string, valid []string) string {
	best, bestDist := "", maxEdits(got)+1
	g := strings.ToLower(got)
	for _, v := range valid {
		if d := distance(g, strings.ToLower(v)); d < bestDist && v != got {
			best, bestDist = v, d
		}
	}
	return best
}

// DidYouMean returns " (did you mean X?)" for the name nearest to got, or
// "" when none is close: the suffix of a message about an unknown name.
func DidYouMean(got string, valid []string) string {
	if s := Closest(got, valid); s != "" {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}

// maxEdits is how many edits still read as a typo of a name as long as s.
func maxEdits(s string) int {
	switch n := len([]rune(s)); {
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	default:
		return 3
	}
}

// distance is the optimal-string-alignment distance between a and b: the
// Levenshtein distance with a swap of two neighbouring letters counted as
// one edit ("fromat" is one edit from "format").
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range t {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
