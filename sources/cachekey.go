package sources

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/hipgen/hipgen/internal/contenthash"
	"github.com/hipgen/hipgen/sources/hipmap"
)

// CacheKey identifies a translation: the input bytes, every option that
// changes the output, the translator's version (TranslatorVersion, a hash
// of its source) and the mapping table's version. Equal keys give
// equal outputs and diagnostics. It tells a file's new content from its
// last (see internal/contenthash), which needs no cryptographic hash.
func CacheKey(name string, src []byte, opts Options) string {
	tv := hipmap.TableVersion
	if opts.Table != nil {
		tv = opts.Table.Version()
	}
	v := opts.ROCmVersion
	if v.IsZero() {
		v = hipmap.DefaultROCm
	}
	var h bytes.Buffer
	fmt.Fprintf(&h, "hipgen-translate %s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00",
		TranslatorVersion, tv, name, opts.SourcePath, v, opts.Launch, opts.Wave, len(src))
	for _, l := range opts.LocalIncludes {
		fmt.Fprintf(&h, "%s\x00", l)
	}
	if len(opts.MissingLibraries) > 0 {
		fmt.Fprintf(&h, "missing\x00")
		for _, l := range opts.MissingLibraries {
			fmt.Fprintf(&h, "%s\x00", l)
		}
	}
	if len(opts.IncludedMacros) > 0 {
		fmt.Fprintf(&h, "macros\x00")
		for _, name := range slices.Sorted(maps.Keys(opts.IncludedMacros)) {
			d := opts.IncludedMacros[name]
			fmt.Fprintf(&h, "%s\x00%t\x00%s\x00", name, d.Live, d.Where)
		}
	}
	head := contenthash.Sum64(h.Bytes(), 0)
	return fmt.Sprintf("%016x%016x", head, contenthash.Sum64(src, head))
}
