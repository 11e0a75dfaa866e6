package rigid

// PaperMonth is one month of seed 003's tables for one trace: Table I
// (demand %, users, jobs), the highest-demand user and its dev (Tables III,
// IV), the running sums of total |dev| (Tables VI, VII). Values are in the
// order RelShare T, RelShare R, Tradeoff-fs T, Tradeoff-fs R.
type PaperMonth struct {
	Month         string // YYYY-MM
	DemandPercent int
	Users, Jobs   int
	TopUser       int64
	TopDev        [4]float64
	RunningAbsDev [4]float64
}

// PaperMonths holds seed 003's values by trace label as the experiment
// manifest names the workloads (kth, sdsc); the design note fairshare.md,
// section 6, transcribes them.
var PaperMonths = map[string][]PaperMonth{
	"kth": {
		{"1996-10", 69, 68, 2404, 3, [4]float64{-7730, -6899, -156, -93}, [4]float64{23722, 23876, 11226, 12456}},
		{"1996-11", 69, 66, 1990, 6, [4]float64{-203, -554, -1607, -1281}, [4]float64{45622, 47507, 26445, 27733}},
		{"1996-12", 65, 69, 2299, 6, [4]float64{145, -669, -11, 394}, [4]float64{63754, 65695, 39754, 42806}},
		{"1997-01", 76, 65, 2939, 15, [4]float64{1132, 1614, 230, 444}, [4]float64{82059, 86580, 52261, 56912}},
		{"1997-02", 76, 75, 2916, 84, [4]float64{4878, 3996, 4311, 4858}, [4]float64{102119, 108646, 68986, 76068}},
		{"1997-03", 74, 69, 2081, 84, [4]float64{4154, 4125, 354, 329}, [4]float64{125979, 136087, 85437, 92557}},
		{"1997-04", 70, 83, 2860, 14, [4]float64{-1062, -383, -411, -284}, [4]float64{139846, 150409, 94788, 102476}},
		{"1997-05", 68, 80, 4080, 67, [4]float64{-274, -450, -515, -677}, [4]float64{148431, 158745, 103636, 109483}},
		{"1997-06", 72, 58, 2697, 29, [4]float64{-1451, -1411, 221, 220}, [4]float64{155120, 166703, 109049, 115794}},
		{"1997-07", 62, 59, 2182, 67, [4]float64{-8, -78, 155, 118}, [4]float64{160202, 172427, 112956, 119368}},
	},
	"sdsc": {
		{"2000-06", 75, 120, 7043, 246, [4]float64{4737, -800, 14515, -646}, [4]float64{127867, 122842, 136207, 139704}},
		{"2000-07", 72, 117, 5607, 151, [4]float64{12241, 7924, 7989, 3151}, [4]float64{290361, 289481, 266049, 289369}},
		{"2000-08", 77, 141, 5433, 151, [4]float64{10309, 10133, 4510, 7477}, [4]float64{441725, 479307, 367728, 343707}},
		{"2000-09", 60, 118, 5172, 273, [4]float64{13851, -7017, 15642, 11092}, [4]float64{554176, 581898, 472440, 478405}},
		{"2000-10", 68, 119, 4234, 95, [4]float64{-889, -7625, 9937, 10457}, [4]float64{687519, 717063, 595267, 606284}},
		{"2000-11", 70, 115, 4132, 95, [4]float64{-1646, 1364, 24347, 27580}, [4]float64{729824, 773483, 675065, 713440}},
		{"2000-12", 62, 107, 3187, 95, [4]float64{-3748, 1008, 2666, 8332}, [4]float64{834837, 883556, 757964, 819434}},
		{"2001-01", 62, 113, 5963, 99, [4]float64{12975, 12967, 2630, -8372}, [4]float64{984392, 1044091, 845105, 922062}},
		{"2001-02", 72, 128, 6912, 174, [4]float64{-2040, 20655, 5554, 16173}, [4]float64{1116066, 1244936, 959343, 1061431}},
		{"2001-03", 70, 143, 6206, 174, [4]float64{-11530, 12333, 3430, 7035}, [4]float64{1229301, 1416714, 1051635, 1174007}},
		{"2001-04", 76, 132, 7167, 101, [4]float64{-1227, -571, 11828, 11849}, [4]float64{1436186, 1648090, 1198499, 1315528}},
		{"2001-05", 83, 151, 8428, 101, [4]float64{545, 4983, -264, -1090}, [4]float64{1674706, 2026606, 1273787, 1466926}},
	},
}

// PaperTableIX is seed 003's Table IX (SDSC 06/00) in the order RelShare
// T, R, Tradeoff-fs T, R: mean wait (h), maximum wait (h), mean slowdown.
var PaperTableIX = struct {
	Trace, Month                      string
	MeanWaitH, MaxWaitH, MeanSlowdown [4]float64
}{"sdsc", "2000-06", [4]float64{0.8, 0.9, 0.7, 0.8}, [4]float64{94.2, 102.8, 38.9, 103.3}, [4]float64{7.9, 13.1, 6.9, 12.9}}

// PaperColumns are the policy x variant columns of seed 003's tables.
var PaperColumns = [4]struct{ Policy, Variant string }{
	{RelShare, "T"}, {RelShare, "R"}, {TradeoffFS, "T"}, {TradeoffFS, "R"},
}

// PaperFor returns the paper's values of a trace month, or nil.
func PaperFor(trace, month string) *PaperMonth {
	for i, p := range PaperMonths[trace] {
		if p.Month == month {
			return &PaperMonths[trace][i]
		}
	}
	return nil
}
