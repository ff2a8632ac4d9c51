package sha256

import (
	"bytes"
	std "crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestKnownAnswers checks FIPS 180-4's examples.
func TestKnownAnswers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		got := Sum256([]byte(c.in))
		if h := hex.EncodeToString(got[:]); h != c.want {
			t.Errorf("Sum256(%q) = %s, want %s", c.in, h, c.want)
		}
	}
}

// TestMatchesCrypto compares Sum256 and New, written in pieces of random
// sizes, with crypto/sha256 on every length up to three blocks and on
// random longer inputs.
func TestMatchesCrypto(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	lengths := []int{}
	for n := 0; n <= 3*BlockSize+1; n++ {
		lengths = append(lengths, n)
	}
	for i := 0; i < 50; i++ {
		lengths = append(lengths, r.IntN(len(data)+1))
	}
	for _, n := range lengths {
		in := data[:n]
		want := std.Sum256(in)
		if got := Sum256(in); got != want {
			t.Fatalf("Sum256 of %d bytes = %x, want %x", n, got, want)
		}
		h := New()
		for rest := in; len(rest) > 0; {
			m := min(len(rest), r.IntN(130))
			h.Write(rest[:m])
			rest = rest[m:]
		}
		if got := h.Sum([]byte("x")); !bytes.Equal(got[1:], want[:]) || got[0] != 'x' {
			t.Fatalf("New, %d bytes in pieces: %x, want x%x", n, got, want)
		}
		// Sum leaves the hash as it was: more input continues it.
		h.Write([]byte("more"))
		if got, want := h.Sum(nil), std.Sum256(append(append([]byte{}, in...), "more"...)); !bytes.Equal(got, want[:]) {
			t.Fatalf("New, %d bytes then more: %x, want %x", n, got, want)
		}
		h.Reset()
		h.Write(in)
		if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("after Reset, %d bytes: %x, want %x", n, got, want)
		}
	}
}

func BenchmarkSum256(b *testing.B) {
	data := make([]byte, 64<<10)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Sum256(data)
	}
}
