package sources

import (
	"maps"
	"slices"
	"strconv"

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
	// Built by appends into a stack buffer: the key is computed for every
	// file of every run, and fmt's boxing cost a dozen allocations each.
	var buf [512]byte
	h := append(buf[:0], "hipgen-translate "...)
	for _, s := range [...]string{TranslatorVersion, tv, name, opts.SourcePath, v.String(), string(opts.Launch), string(opts.Wave)} {
		h = append(append(h, s...), 0)
	}
	h = append(strconv.AppendInt(h, int64(len(src)), 10), 0)
	if opts.IncludesResolved {
		h = append(h, "resolved\x00"...)
	}
	for _, l := range opts.LocalIncludes {
		h = append(append(h, l...), 0)
	}
	if len(opts.MissingLibraries) > 0 {
		h = append(h, "missing\x00"...)
		for _, l := range opts.MissingLibraries {
			h = append(append(h, l...), 0)
		}
	}
	if len(opts.HIPDefines) > 0 {
		h = append(h, "hipdefines\x00"...)
		for _, d := range opts.HIPDefines {
			h = append(append(h, d...), 0)
		}
	}
	if len(opts.IncludedMacros) > 0 {
		h = append(h, "macros\x00"...)
		for _, name := range slices.Sorted(maps.Keys(opts.IncludedMacros)) {
			d := opts.IncludedMacros[name]
			h = append(append(h, name...), 0)
			h = append(strconv.AppendBool(h, d.Live), 0)
			h = append(append(h, d.Where...), 0)
		}
	}
	head := contenthash.Sum64(h, 0)
	var key [32]byte
	hexWord(key[:16], head)
	hexWord(key[16:], contenthash.Sum64(src, head))
	return string(key[:])
}

// hexWord writes x as 16 lower-case hex digits into dst.
func hexWord(dst []byte, x uint64) {
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		dst[i] = digits[x&15]
		x >>= 4
	}
}
