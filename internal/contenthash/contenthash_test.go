package contenthash

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestKnownValues pins the function: the hash is stored in state files, so
// it must give the same values on every machine and in every release that
// reads them (a change needs a new state format).
func TestKnownValues(t *testing.T) {
	for _, c := range []struct {
		in   string
		seed uint64
		want uint64
	}{
		{"", 0, 0x0409638ee2bde459},
		{"a", 0, 0x28d2053309d28531},
		{"abc", 1, 0xdbe5b1e5823255b7},
		{"__global__ void k() {}", 0, 0x2abfc28c307c10c7},
		{string(bytes.Repeat([]byte("0123456789"), 20)), 7, 0xf4d32da41adffd24},
	} {
		if got := Sum64([]byte(c.in), c.seed); got != c.want {
			t.Errorf("Sum64(%q, %d) = %#x, want %#x", c.in, c.seed, got, c.want)
		}
	}
}

// TestChangesChangeTheHash flips, inserts and deletes single bytes at
// every position of inputs of many lengths (each code path of Sum64): no
// such edit may leave the hash unchanged, nor may the seed.
func TestChangesChangeTheHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[uint64][]byte{}
	for n := 0; n <= 200; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		h := Sum64(b, 0)
		if Sum64(b, 1) == h {
			t.Fatalf("length %d: seed does not change the hash", n)
		}
		variants := [][]byte{append(append([]byte(nil), b...), 0)}
		for i := range b {
			for _, bit := range []byte{1, 0x80} {
				v := append([]byte(nil), b...)
				v[i] ^= bit
				variants = append(variants, v)
			}
			variants = append(variants, append(append([]byte(nil), b[:i]...), b[i+1:]...))
		}
		for _, v := range append(variants, b) {
			hv := Sum64(v, 0)
			if old, ok := seen[hv]; ok && !bytes.Equal(old, v) {
				t.Fatalf("collision between %x and %x", old, v)
			}
			seen[hv] = v
		}
	}
}

func BenchmarkSum64(b *testing.B) {
	data := bytes.Repeat([]byte("__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n"), 1<<14)
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		Sum64(data, 0)
	}
}

func BenchmarkSHA256(b *testing.B) {
	data := bytes.Repeat([]byte("__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n"), 1<<14)
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		sha256.Sum256(data)
	}
}
