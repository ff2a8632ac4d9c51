// Package sha256 is SHA-256 (FIPS 180-4) in plain Go, for hipgen's content
// digests (the build cache's blobs and action keys, the manifest cache,
// the mapping tables' version).
//
// It exists because of what the standard library's crypto/sha256 costs a
// short-lived process: since Go 1.24 it brings in the FIPS 140 module, whose
// package initialisation and 32 MB entropy scratch buffer (a zeroed
// variable the runtime still builds a pointer mask for at start) add
// about 0.1 ms and 40 page faults to every start of hipgen, whose usual
// run (translating a tree) lasts a few milliseconds and never hashes with
// SHA-256. This one is slower per byte (no SHA instructions), which no caller
// notices: they hash manifests, table files and the inputs of compiles
// that take seconds. The tests compare it with crypto/sha256.
package sha256

import (
	"encoding/binary"
	"hash"
	"math/bits"
)

// Size is the length of a digest in bytes.
const Size = 32

// BlockSize is the block size of SHA-256 in bytes.
const BlockSize = 64

var initial = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

var k = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// Digest is a running SHA-256 hash; New returns one.
type Digest struct {
	h   [8]uint32
	buf [BlockSize]byte
	nb  int    // bytes in buf
	len uint64 // bytes written in all
}

// New returns a hash.Hash computing SHA-256.
func New() hash.Hash {
	d := &Digest{}
	d.Reset()
	return d
}

// Sum256 returns the SHA-256 digest of data.
func Sum256(data []byte) [Size]byte {
	var d Digest
	d.Reset()
	d.Write(data)
	return d.sum()
}

// Reset restores the initial state.
func (d *Digest) Reset() {
	d.h = initial
	d.nb = 0
	d.len = 0
}

// Size returns Size.
func (d *Digest) Size() int { return Size }

// BlockSize returns BlockSize.
func (d *Digest) BlockSize() int { return BlockSize }

// Write adds p to the hash; it never fails.
func (d *Digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.nb > 0 {
		c := copy(d.buf[d.nb:], p)
		d.nb += c
		p = p[c:]
		if d.nb < BlockSize {
			return n, nil
		}
		d.blocks(d.buf[:])
		d.nb = 0
	}
	if full := len(p) &^ (BlockSize - 1); full > 0 {
		d.blocks(p[:full])
		p = p[full:]
	}
	d.nb = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the digest of what was written to b, leaving the hash as it
// was.
func (d *Digest) Sum(b []byte) []byte {
	s := d.sum()
	return append(b, s[:]...)
}

// sum pads a copy of d and returns its digest.
func (d *Digest) sum() [Size]byte {
	c := *d
	var pad [BlockSize + 8]byte
	pad[0] = 0x80
	// Pad to 56 bytes mod 64, then the length in bits, big-endian.
	n := 56 - int(c.len%BlockSize)
	if n <= 0 {
		n += BlockSize
	}
	binary.BigEndian.PutUint64(pad[n:], c.len<<3)
	c.Write(pad[:n+8])
	var out [Size]byte
	for i, v := range c.h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// blocks hashes p, a whole number of blocks, into d.h.
func (d *Digest) blocks(p []byte) {
	var w [64]uint32
	h0, h1, h2, h3, h4, h5, h6, h7 := d.h[0], d.h[1], d.h[2], d.h[3], d.h[4], d.h[5], d.h[6], d.h[7]
	for ; len(p) >= BlockSize; p = p[BlockSize:] {
		for i := 0; i < 16; i++ {
			w[i] = binary.BigEndian.Uint32(p[4*i:])
		}
		for i := 16; i < 64; i++ {
			v1 := w[i-2]
			t1 := bits.RotateLeft32(v1, -17) ^ bits.RotateLeft32(v1, -19) ^ v1>>10
			v2 := w[i-15]
			t2 := bits.RotateLeft32(v2, -7) ^ bits.RotateLeft32(v2, -18) ^ v2>>3
			w[i] = t1 + w[i-7] + t2 + w[i-16]
		}
		a, b, c, dd, e, f, g, h := h0, h1, h2, h3, h4, h5, h6, h7
		for i := 0; i < 64; i++ {
			t1 := h + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) +
				(e&f ^ ^e&g) + k[i] + w[i]
			t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) +
				(a&b ^ a&c ^ b&c)
			h, g, f, e, dd, c, b, a = g, f, e, dd+t1, c, b, a, t1+t2
		}
		h0 += a
		h1 += b
		h2 += c
		h3 += dd
		h4 += e
		h5 += f
		h6 += g
		h7 += h
	}
	d.h = [8]uint32{h0, h1, h2, h3, h4, h5, h6, h7}
}
