package grid

import "testing"

// BenchmarkGeneratePreset generates one instance of each preset at Table 2
// scale. The paper needs 30 instances of each, so 30 x the sum of the five
// ns/op is the serial time for all 150.
func BenchmarkGeneratePreset(b *testing.B) {
	for _, name := range Presets() {
		preset, err := Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		params := preset.Defaults()
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := Generate(params, 1, i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
