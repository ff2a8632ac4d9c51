package sources

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/hipgen/hipgen/sources/hipmap"
)

// TranslatorVersion changes whenever the translator's output for the same
// input may change; it is part of every cache key.
const TranslatorVersion = "2"

// CacheKey identifies a translation: the input bytes, every option that
// changes the output and the mapping table's version. Equal keys give
// equal outputs and diagnostics.
func CacheKey(name string, src []byte, opts Options) string {
	h := sha256.New()
	tv := hipmap.TableVersion
	if opts.Table != nil {
		tv = opts.Table.Version()
	}
	v := opts.ROCmVersion
	if v.IsZero() {
		v = hipmap.DefaultROCm
	}
	fmt.Fprintf(h, "hipgen-translate %s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00",
		TranslatorVersion, tv, name, opts.SourcePath, v, opts.Launch, opts.Wave, len(src))
	for _, l := range opts.LocalIncludes {
		fmt.Fprintf(h, "%s\x00", l)
	}
	h.Write(src)
	return hex.EncodeToString(h.Sum(nil))[:32]
}
