package sources

import "bytes"

// commonBytes lists the printable ASCII bytes from the most to the least
// frequent in CUDA code (counted over HeCBench, candle-kernels and
// cuda-samples); byteRank gives each its place, and every other byte 255.
const commonBytes = " etinaosr,_dcl1u/fm)(p*=0;h23g-.5x4b7y69vTI8E:S+kCA]<Rw[{N}OLzD>MP\"UF#B&HGW\\KVYjqX%!Z|'Q?^@J`~$"

var byteRank = func() (r [256]uint8) {
	for i := range r {
		r[i] = 255
	}
	for i := 0; i < len(commonBytes); i++ {
		r[commonBytes[i]] = uint8(i)
	}
	return r
}()

// indexText returns the offset of the first needle in src at or after
// from, or -1. It looks for the needle's rarest byte (byteRank) with
// bytes.IndexByte and compares the rest there: bytes.Index looks for the
// first byte, and words of the API start with common ones ('c', 'h', '_',
// 'a'), which made it stop every few dozen bytes. Whole-file searches for
// "cudaPointerAttributes" or "cooperative_groups" take a fifth of the
// time so.
func indexText(src []byte, needle string, from int) int {
	n := len(needle)
	if n == 0 {
		return min(from, len(src))
	}
	k := 0
	for i := 1; i < n; i++ {
		if byteRank[needle[i]] > byteRank[needle[k]] {
			k = i
		}
	}
	c := needle[k]
	for i := from + k; i < len(src); {
		j := bytes.IndexByte(src[i:], c)
		if j < 0 {
			return -1
		}
		p := i + j - k
		if p+n <= len(src) && string(src[p:p+n]) == needle {
			return p
		}
		i += j + 1
	}
	return -1
}

// containsText reports whether src contains needle (see indexText).
func containsText(src []byte, needle string) bool { return indexText(src, needle, 0) >= 0 }
