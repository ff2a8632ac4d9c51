package lex

import (
	"slices"
	"strings"
	"testing"
)

type want struct {
	kind Kind
	text string
}

func tokens(src string) []want {
	var out []want
	for _, tk := range Tokenize([]byte(src), nil) {
		if tk.Kind == Space || tk.Kind == Newline {
			continue
		}
		out = append(out, want{tk.Kind, src[tk.Start:tk.End]})
	}
	return out
}

func TestTokenKinds(t *testing.T) {
	cases := []struct {
		src  string
		want []want
	}{
		{`a // c "x"`, []want{{Ident, "a"}, {Comment, `// c "x"`}}},
		{"/* a\n b */x", []want{{Comment, "/* a\n b */"}, {Ident, "x"}}},
		{`"a\"b" 'c' '\''`, []want{{String, `"a\"b"`}, {Char, "'c'"}, {Char, `'\''`}}},
		{`R"d(x)" )d" y`, []want{{String, `R"d(x)" )d"`}, {Ident, "y"}}},
		{`u8R"(a)" LR"(b)" uR"(c)"`, []want{{String, `u8R"(a)"`}, {String, `LR"(b)"`}, {String, `uR"(c)"`}}},
		{`u8"a" L'b' U"c" u'd'`, []want{{String, `u8"a"`}, {Char, "L'b'"}, {String, `U"c"`}, {Char, "u'd'"}}},
		{"1'000'000 0x1'F 1.5e+3f .5", []want{{Number, "1'000'000"}, {Number, "0x1'F"}, {Number, "1.5e+3f"}, {Number, ".5"}}},
		{"k<<<a, b>>>(c)", []want{{Ident, "k"}, {Punct, "<<<"}, {Ident, "a"}, {Punct, ","}, {Ident, "b"}, {Punct, ">>>"}, {Punct, "("}, {Ident, "c"}, {Punct, ")"}}},
		{"a<<=b>>=c->d::e...", []want{{Ident, "a"}, {Punct, "<<="}, {Ident, "b"}, {Punct, ">>="}, {Ident, "c"}, {Punct, "->"}, {Ident, "d"}, {Punct, "::"}, {Ident, "e"}, {Punct, "..."}}},
		{"#include <a/b.h>\nx < y > z", []want{{Punct, "#"}, {Ident, "include"}, {HeaderName, "<a/b.h>"}, {Ident, "x"}, {Punct, "<"}, {Ident, "y"}, {Punct, ">"}, {Ident, "z"}}},
		{`"s"_sv`, []want{{String, `"s"_sv`}}},
		{"// a \\\n b\nc", []want{{Comment, "// a \\\n b"}, {Ident, "c"}}},
		{`"open` + "\nx", []want{{String, `"open`}, {Ident, "x"}}},
		{"R\"bad delim with space(x)bad\"", []want{{Ident, "R"}, {String, "\"bad delim with space(x)bad\""}}},
	}
	for _, c := range cases {
		got := tokens(c.src)
		if len(got) != len(c.want) {
			t.Errorf("%q: got %v, want %v", c.src, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: token %d: got %v, want %v", c.src, i, got[i], c.want[i])
			}
		}
	}
}

func TestDirectiveFlag(t *testing.T) {
	src := "#define A(x) \\\n  x + 1\nint b;\n  # pragma once\n"
	toks := Tokenize([]byte(src), nil)
	for _, tk := range toks {
		text := src[tk.Start:tk.End]
		inDir := tk.Directive
		switch text {
		case "define", "x", "1", "pragma", "once":
			if !inDir {
				t.Errorf("%q: want Directive", text)
			}
		case "int", "b", ";":
			if inDir {
				t.Errorf("%q: want no Directive", text)
			}
		}
	}
}

// TestRoundTrip checks that tokens cover every byte in order.
func TestRoundTrip(t *testing.T) {
	for _, src := range []string{"", "a", "\\", "'", "\"", "R\"", "R\"x(", "/*", "#include <", "a\\\r\nb", "\x00\xff", "1'", "x<<<<>>>>"} {
		var b strings.Builder
		pos := int32(0)
		for _, tk := range Tokenize([]byte(src), nil) {
			if tk.Start != pos || tk.End <= tk.Start {
				t.Fatalf("%q: token %+v does not continue at %d", src, tk, pos)
			}
			b.WriteString(src[tk.Start:tk.End])
			pos = tk.End
		}
		if b.String() != src {
			t.Errorf("%q: round trip gave %q", src, b.String())
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"int a; // x", `R"d(x)d"`, "#include <a>\n", "a\\\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		pos := int32(0)
		for _, tk := range Tokenize([]byte(src), nil) {
			if tk.Start != pos || tk.End <= tk.Start {
				t.Fatalf("token %+v does not continue at %d", tk, pos)
			}
			pos = tk.End
		}
		if int(pos) != len(src) {
			t.Fatalf("tokens end at %d of %d", pos, len(src))
		}
	})
}

func benchSource() []byte {
	line := "__global__ void k(const float* __restrict__ in, float* out, int n) { // sum\n" +
		"  int i = blockIdx.x * blockDim.x + threadIdx.x; float v = i < n ? in[i] : 0.0f; /* c */\n" +
		"  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n" +
		"  if ((threadIdx.x & 31) == 0) atomicAdd(out, v); printf(\"%d\\n\", 1'000);\n}\n"
	return []byte(strings.Repeat(line, (4<<20)/len(line)))
}

func BenchmarkTokenize(b *testing.B) {
	src := benchSource()
	buf := Tokenize(src, nil)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = Tokenize(src, buf)
	}
}

func TestScanIncludes(t *testing.T) {
	src := []byte("#include <a.h>\n  #  include \"b.h\" // c\n#define X \"not.h\"\n" +
		"/* #include <no.h> */\nconst char *s = \"#include <no2.h>\";\n#include_next <c.h>\n#import \"d.h\"\n#include MACRO\n#include\n\"e.h\"\n")
	c := Scan(src, Code{}, nil)
	toks := c.Tokens
	var got []string
	for _, i := range c.Includes {
		got = append(got, string(src[toks[i].Start:toks[i].End]))
	}
	want := []string{"<a.h>", `"b.h"`, "<c.h>", `"d.h"`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("includes = %q, want %q", got, want)
	}
}

// TestScanSplitsTokenize checks Scan against Tokenize: the same code
// tokens with the same flags, the same comments, and LineStart on the
// first code token of each logical line only.
func TestScanSplitsTokenize(t *testing.T) {
	for _, src := range []string{
		"#define A(x) \\\n  x + 1 // c\nint b; /* multi\nline */ # x\n  /* lead */ # pragma once\n",
		"a\n\n  b c\n/* x */ d\n", "", "#", "x /*\n*/ y", "\"s\" 'c' R\"(r\n)\"\n#include <h>\n",
	} {
		all := Tokenize([]byte(src), nil)
		c := Scan([]byte(src), Code{}, nil)
		var code, comments []Token
		lineStart := true
		for _, tk := range all {
			switch tk.Kind {
			case Newline:
				lineStart = true
			case Space:
			case Comment:
				comments = append(comments, tk)
			default:
				tk.LineStart = lineStart
				lineStart = false
				code = append(code, tk)
			}
		}
		if len(code) != len(c.Tokens) {
			t.Fatalf("%q: %d code tokens, Tokenize has %d", src, len(c.Tokens), len(code))
		}
		for i := range code {
			if code[i] != c.Tokens[i] {
				t.Errorf("%q: token %d = %+v, want %+v", src, i, c.Tokens[i], code[i])
			}
		}
		if len(comments) != len(c.Comments) {
			t.Fatalf("%q: %d comments, want %d", src, len(c.Comments), len(comments))
		}
		for i := range comments {
			if comments[i] != c.Comments[i] {
				t.Errorf("%q: comment %d = %+v, want %+v", src, i, c.Comments[i], comments[i])
			}
		}
	}
}

func BenchmarkScan(b *testing.B) {
	src := benchSource()
	c := Scan(src, Code{}, nil)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c = Scan(src, c, nil)
	}
}

// refBrackets pairs brackets the slow way, for the tests: the directives
// #if, #elif, #else and #endif make a tree of branches, walked
// recursively; within a branch, each opening bracket pairs with the next
// closer of its kind at its own depth, counting only that kind. A
// conditional goes on from its first branch's brackets; each later branch
// starts from the brackets open at the #if, closes at its end what it left
// open, and does not pair a closer with a bracket opened before it. The
// brackets of each preprocessor line pair among themselves.
func refBrackets(src []byte, toks []Token) (close map[int]int32, braces, up, after []int32) {
	close = map[int]int32{}
	lineOf := make([]int, len(toks)) // the '#' of each token's directive line, or -1
	closer := map[int]int{}          // ) -> its (
	one := func(j int) byte {
		if toks[j].Kind == Punct && toks[j].End-toks[j].Start == 1 {
			return src[toks[j].Start]
		}
		return 0
	}
	// word returns the first word of the directive whose '#' is toks[j].
	word := func(j int) string {
		if !toks[j].Directive || !toks[j].LineStart || one(j) != '#' || j+1 >= len(toks) || toks[j+1].Kind != Ident || !toks[j+1].Directive {
			return ""
		}
		return string(src[toks[j+1].Start:toks[j+1].End])
	}
	kinds := map[byte]int{'(': 0, '[': 1, '{': 2, ')': 0, ']': 1, '}': 2}
	type state struct {
		open  [3][]int // opening brackets by kind
		brace []int    // index in braces of the open {
	}
	lines := map[int]*state{} // by the '#' of the line
	for j, tk := range toks {
		lineOf[j] = -1
		if !tk.Directive {
			continue
		}
		if tk.LineStart && one(j) == '#' {
			lineOf[j] = j
		} else if j > 0 {
			lineOf[j] = lineOf[j-1]
		}
	}
	clone := func(s state) state {
		var c state
		for k := range s.open {
			c.open[k] = append([]int(nil), s.open[k]...)
		}
		c.brace = append([]int(nil), s.brace...)
		return c
	}
	// walk pairs from toks[j], in a branch begun at from, until the
	// directive that ends the branch (or the end), whose index it returns
	// with its word; keep is where the innermost later branch around
	// began (-1: none).
	var walk func(j int, s *state, keep int) (int, string)
	walk = func(j int, s *state, keep int) (int, string) {
		for ; j < len(toks); j++ {
			switch w := word(j); w {
			case "if", "ifdef", "ifndef":
				at := clone(*s)
				end, w := walk(j+1, s, keep)
				first := clone(*s)
				for w == "elif" || w == "else" || w == "elifdef" || w == "elifndef" {
					b := clone(at)
					from := end
					end, w = walk(end+1, &b, from)
					for k := range b.open {
						for _, o := range b.open[k] {
							if o > from && end < len(toks) {
								close[o] = int32(end)
							}
						}
					}
				}
				*s = first
				j = end
				continue
			case "elif", "else", "elifdef", "elifndef", "endif":
				return j, w
			}
			c := one(j)
			k, ok := kinds[c]
			if !ok {
				continue
			}
			outer, s := s, s
			if h := lineOf[j]; h >= 0 {
				if lines[h] == nil {
					lines[h] = &state{}
				}
				s = lines[h]
			}
			if c == '(' || c == '[' || c == '{' {
				close[j] = -1
				s.open[k] = append(s.open[k], j)
				if c == '{' {
					u := int32(-1)
					if len(s.brace) > 0 {
						u = int32(s.brace[len(s.brace)-1])
					} else if len(outer.brace) > 0 {
						u = int32(outer.brace[len(outer.brace)-1])
					}
					a := int32(-1)
					if j > 0 && one(j-1) == ')' {
						if o, ok := closer[j-1]; ok {
							a = int32(o)
						}
					}
					s.brace = append(s.brace, len(braces))
					braces, up, after = append(braces, int32(j)), append(up, u), append(after, a)
				}
				continue
			}
			if len(s.open[k]) == 0 {
				continue
			}
			o := s.open[k][len(s.open[k])-1]
			s.open[k] = s.open[k][:len(s.open[k])-1]
			if c == ')' {
				closer[j] = o
			}
			if c == '}' {
				s.brace = s.brace[:len(s.brace)-1]
			}
			if o > keep {
				close[o] = int32(j)
			}
		}
		return len(toks), ""
	}
	var s state
	for j := 0; j < len(toks); {
		end, _ := walk(j, &s, -1) // a stray #elif, #else or #endif is skipped
		j = end + 1
	}
	return close, braces, up, after
}

// scanTokens scans src and returns the code, the text of each token and a
// function giving the index of the n-th token (from 0) whose text is s.
func scanTokens(t *testing.T, src string) (Code, []string, func(s string, n int) int) {
	t.Helper()
	c := Scan([]byte(src), Code{}, nil)
	var text []string
	for _, tk := range c.Tokens {
		text = append(text, src[tk.Start:tk.End])
	}
	nth := func(s string, n int) int {
		for j, x := range text {
			if x == s {
				if n == 0 {
					return j
				}
				n--
			}
		}
		t.Fatalf("no token %q", s)
		return -1
	}
	return c, text, nth
}

func checkBrackets(t *testing.T, src string) {
	t.Helper()
	c := Scan([]byte(src), Code{}, nil)
	close, braces, up, after := refBrackets([]byte(src), c.Tokens)
	for _, br := range []Brackets{c.Brackets, Match([]byte(src), c.Tokens, Brackets{})} {
		for j, want := range close {
			if br.Close[j] != want {
				t.Fatalf("%q: token %d closes at %d, want %d", src, j, br.Close[j], want)
			}
		}
		if !slices.Equal(br.Braces, braces) || !slices.Equal(br.BraceUp, up) || !slices.Equal(br.BraceAfter, after) {
			t.Fatalf("%q: braces %v up %v after %v, want %v %v %v", src, br.Braces, br.BraceUp, br.BraceAfter, braces, up, after)
		}
	}
}

func TestBrackets(t *testing.T) {
	src := "void f(int a[2]) { if (a) { g(); } } ] ) } int x = (1; struct s { int y; };"
	c, text, at := scanTokens(t, src)
	for _, p := range []struct {
		open, close int
	}{
		{at("(", 0), at(")", 0)}, {at("[", 0), at("]", 0)}, {at("{", 0), at("}", 1)},
		{at("(", 1), at(")", 1)}, {at("{", 1), at("}", 0)}, {at("(", 2), at(")", 2)},
		{at("(", 3), -1}, {at("{", 2), at("}", 3)},
	} {
		if got := c.Close[p.open]; int(got) != p.close {
			t.Errorf("token %d %q closes at %d, want %d", p.open, text[p.open], got, p.close)
		}
	}
	if want := []int32{int32(at("{", 0)), int32(at("{", 1)), int32(at("{", 2))}; !slices.Equal(c.Braces, want) {
		t.Errorf("braces %v, want %v", c.Braces, want)
	}
	if want := []int32{-1, 0, -1}; !slices.Equal(c.BraceUp, want) {
		t.Errorf("brace parents %v, want %v", c.BraceUp, want)
	}
	if want := []int32{int32(at("(", 0)), int32(at("(", 1)), -1}; !slices.Equal(c.BraceAfter, want) {
		t.Errorf("parameter lists before braces %v, want %v", c.BraceAfter, want)
	}
	checkBrackets(t, src)
}

func FuzzBrackets(f *testing.F) {
	for _, s := range []string{"f(a[1]) { { } }", "}{)(][", "#define X (\n) {", "a[(]) {b}(c){",
		"f() {\n#if A\nif (x) {\n#elif B\nif (y) {\n#else\n{ (\n#endif\n}\n}\ng() {}",
		"{\n#ifdef A\n}\n#else\n} }\n#endif\n}", "(\n#if A\n#if B\n[\n#else\n)\n#endif\n#else\n{\n#endif\n",
		"f(0,\n#if g(\n1)\n#endif\n)", "{\n#define B { (\n#define E ) }\n}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkBrackets(t, src) })
}

func TestScanScopes(t *testing.T) {
	src := "#if A\nnamespace a { using namespace b; }\n  #  ifdef B // c\n#elif\n#else\n#endif\n" +
		"#define X using\n/* namespace */ const char *s = \"using\"; int namespaces, usings;\n#endif\n#line 1\n"
	c := Scan([]byte(src), Code{}, nil)
	var got []string
	for _, i := range c.Scopes {
		tk := c.Tokens[i]
		got = append(got, src[tk.Start:c.Tokens[i+1].End])
	}
	want := []string{"#if", "namespace a", "using namespace", "namespace b", "#  ifdef", "#elif", "#else", "#endif", "#define", "using\n/* namespace */ const", "#endif"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("scopes = %q, want %q", got, want)
	}
	if w := FindScopes([]byte(src), c.Tokens, nil); !slices.Equal(c.Scopes, w) {
		t.Errorf("Scopes = %v, the tokens say %v", c.Scopes, w)
	}
}

// checkScanParallel checks ScanParallel against Scan with several numbers
// of parts, and Scan's Scopes against the tokens.
func checkScanParallel(t *testing.T, src string) {
	t.Helper()
	want := Scan([]byte(src), Code{}, testNames)
	if w := FindScopes([]byte(src), want.Tokens, nil); !slices.Equal(want.Scopes, w) {
		t.Fatalf("%q: Scopes = %v, the tokens say %v", src, want.Scopes, w)
	}
	if w := identsOf([]byte(src), want.Tokens); *want.Idents != *w {
		t.Fatalf("%q: Idents differ from the identifiers among the tokens", src)
	}
	for parts := 2; parts <= 5; parts++ {
		got := ScanParallel([]byte(src), Code{}, testNames, parts)
		if !slices.Equal(got.Tokens, want.Tokens) || !slices.Equal(got.Comments, want.Comments) || !slices.Equal(got.Includes, want.Includes) || !slices.Equal(got.Scopes, want.Scopes) || *got.Idents != *want.Idents {
			t.Fatalf("%q in %d parts: tokens, comments, includes, scopes or identifiers differ from Scan", src, parts)
		}
		for j, tk := range want.Tokens {
			if tk.Kind == Punct && tk.End-tk.Start == 1 && strings.IndexByte("([{", src[tk.Start]) >= 0 && got.Close[j] != want.Close[j] {
				t.Fatalf("%q in %d parts: token %d closes at %d, Scan says %d", src, parts, j, got.Close[j], want.Close[j])
			}
		}
		if !slices.Equal(got.Braces, want.Braces) || !slices.Equal(got.BraceUp, want.BraceUp) || !slices.Equal(got.BraceAfter, want.BraceAfter) {
			t.Fatalf("%q in %d parts: braces differ from Scan", src, parts)
		}
	}
}

// identsOf returns the set of the identifiers among toks, tokens of src.
func identsOf(src []byte, toks []Token) *Idents {
	n := new(Idents)
	for _, tk := range toks {
		if tk.Kind == Ident {
			n.add(NameHash(src[tk.Start:tk.End]))
		}
	}
	return n
}

// TestScanIdents checks that Code.Idents may contain each identifier of
// the code, and that a buffer reused from another scan keeps none of its.
func TestScanIdents(t *testing.T) {
	src := []byte("__global__ void k(int* p) { cudaMalloc(&p, 4); /* hidden */ \"str\"; }\n#define M(x) x\n")
	c := Scan(src, Code{}, nil)
	for _, w := range []string{"__global__", "k", "cudaMalloc", "p", "M", "x", "define"} {
		if !c.Idents.MayContain(w) {
			t.Errorf("Idents lacks %s", w)
		}
	}
	for _, w := range []string{"hidden", "str", "CUdeviceptr", "half2"} {
		if c.Idents.MayContain(w) {
			t.Errorf("Idents has %s, which is no identifier of the code", w)
		}
	}
	if d := Scan([]byte("int a;"), c, nil); d.Idents.MayContain("cudaMalloc") {
		t.Error("a reused buffer kept the identifiers of its last scan")
	}
}

func TestScanParallel(t *testing.T) {
	for _, src := range []string{
		"",
		"int a;\n",
		"#include <a.h>\n#include \"b.h\"\nint f()\n{\n  return (1);\n}\n/* a\nlong\ncomment\n*/ int b;\n#define X \\\n  1\nint c = X;\n",
		"a /* spans\nmany\nlines\nand\ncuts */ b\nc\nd\ne\nf\n",
		"auto s = R\"x(\nraw\nstring\n)x\";\nint g;\nint h;\n",
		"// comment \\\ncontinued\nint i;\n\"unterminated\nint j;\r\n#pragma once\r\nint k; \\\r\nint l;\n",
		// A launch open across a cut: its "> >" closer is one token
		// only when the lexer knows the launch is open.
		"k<<<a,\nb,\nc>> >(p);\nA<A<A<int>> > x;\nk << <1, 1\n>> >(p);\n",
	} {
		checkScanParallel(t, src)
	}
	// A big input with every construct, cut in many places.
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("#include <x.h>\n__global__ void k(int* p)\n{ /* c\n */ p[0] = R\"(\n)\"[0]; // x \\\n y\n}\n#define M(a) \\\n (a)\n")
	}
	checkScanParallel(t, b.String())
	// Brackets open across the cuts, under #if branches, and chunks
	// denser in tokens than their regions (one token a byte), which are
	// joined in a buffer of their own.
	b.Reset()
	for i := 0; i < 300; i++ {
		b.WriteString("f(\n#if A\n{[\n#else\n{(\n#endif\n)}\n")
	}
	b.WriteString(strings.Repeat("(){}[];\n", 3000))
	b.WriteString(strings.Repeat(")}\n", 300))
	checkScanParallel(t, b.String())
}

func FuzzScanParallel(f *testing.F) {
	for _, s := range []string{"a\nb\n/*\n*/\nc\n", "R\"(\n\n)\"\n\n", "x\\\n\\\ny\nz\n", "#include <a\n>\n", "k<<<a,\nb>> >(p);\nc>> >d;\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkScanParallel(t, src) })
}

// TestLaunchBracketsWithBlanks wants "<< <" and ">> >" (nvcc's spellings of
// a launch's <<< and >>>, with blanks inside) to be one token each in a
// launch, and left apart elsewhere.
func TestLaunchBracketsWithBlanks(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"k << < 1, 1 >> > (p);", "k|<< <|1|,|1|>> >|(|p|)|;"},
		{"k<<\t<1,1>>\t>(p);", "k|<<\t<|1|,|1|>>\t>|(|p|)|;"},
		{"k<<<1, 1>> >(p);", "k|<<<|1|,|1|>> >|(|p|)|;"},
		{"A<A<A<int>> > x;", "A|<|A|<|A|<|int|>>|>|x|;"},
		{"k<<<1,1>>>(p); A<A<A<int>> > x;", "k|<<<|1|,|1|>>>|(|p|)|;|A|<|A|<|A|<|int|>>|>|x|;"},
		{"friend ostream &operator<< <>(ostream &);", "friend|ostream|&|operator|<<|<|>|(|ostream|&|)|;"},
		{"x << <y;", "x|<< <|y|;"},
		{"a << <= b; c << << d;", "a|<<|<=|b|;|c|<<|<<|d|;"},
		{"k <<\n< 1, 1 >>> (p);", "k|<<|<|1|,|1|>>>|(|p|)|;"},
	} {
		code := Scan([]byte(c.src), Code{}, nil)
		var got []string
		for _, tk := range code.Tokens {
			got = append(got, c.src[tk.Start:tk.End])
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("Scan(%q) = %q, want %q", c.src, g, c.want)
		}
	}
}

// testNames holds a few identifiers for the marking tests.
var testNames = func() *Names {
	n := new(Names)
	for _, s := range []string{"p", "k", "include", "x", "cudaMalloc", "b"} {
		n.Add(s)
	}
	return n
}()

// TestScanMarksKnownNames checks Known against Mark and MayContain.
func TestScanMarksKnownNames(t *testing.T) {
	src := []byte("__global__ void k(int* p) { cudaMalloc(&p, 4); int y = b; } #include <x.h>\n")
	c := Scan(src, Code{}, testNames)
	known := 0
	for _, tk := range c.Tokens {
		want := tk.Kind == Ident && testNames.MayContain(src[tk.Start:tk.End])
		if tk.Known != want {
			t.Errorf("%q: Known %v, want %v", src[tk.Start:tk.End], tk.Known, want)
		}
		if tk.Known {
			known++
		}
	}
	if known < 5 {
		t.Errorf("only %d identifiers marked", known)
	}
	again := slices.Clone(c.Tokens)
	Mark(src, again, nil)
	Mark(src, again, testNames)
	if !slices.Equal(again, c.Tokens) {
		t.Error("Mark differs from Scan's marks")
	}
	// A buffer reused from a scan with names holds no stale marks.
	if d := Scan(src, c, nil); slices.ContainsFunc(d.Tokens, func(tk Token) bool { return tk.Known }) {
		t.Error("a scan without names left marks")
	}
}

// TestBracketsOnPreprocessorLines pairs the brackets of a preprocessor
// line among themselves: a code parenthesis open around an #if closes in
// the code, and a macro's unbalanced { stays open.
func TestBracketsOnPreprocessorLines(t *testing.T) {
	src := "void f() {\n  g(0,\n#if h(\n  1)\n#endif\n  );\n#define BEGIN { [\n  int x;\n#define END ] }\n#define Q(a) { (a) }\n}\n"
	c, text, nth := scanTokens(t, src)
	for _, p := range []struct {
		what        string
		open, close int
	}{
		{"function body", nth("{", 0), nth("}", 2)},
		{"call, around an #if", nth("(", 1), nth(")", 1)},
		{"( of the #if", nth("(", 2), -1},
		{"{ of BEGIN", nth("{", 1), -1},
		{"[ of BEGIN", nth("[", 0), -1},
		{"{ of Q", nth("{", 2), nth("}", 1)},
		{"( of Q's body", nth("(", 4), nth(")", 4)},
	} {
		if got := c.Close[p.open]; int(got) != p.close {
			t.Errorf("%s: %s at token %d closes at %d, want %d", p.what, text[p.open], p.open, got, p.close)
		}
	}
	if want := []int32{-1, 0, 0}; !slices.Equal(c.BraceUp, want) {
		t.Errorf("brace parents %v, want %v", c.BraceUp, want)
	}
	checkBrackets(t, src)
}

// TestBracketsAcrossConditionalBranches pairs the braces of a function
// whose #if branches each open a brace that one closer after the #endif
// closes (as llama.cpp's kernels do): the function body closes at its own
// '}', not at the end of the file.
func TestBracketsAcrossConditionalBranches(t *testing.T) {
	src := "__global__ void k() {\n#if A\nif (a) { f();\n#elif B\nif (b) { g();\n#else\nif (c) { h();\n#endif\nx();\n}\n}\nvoid host() { k<<<1, 1>>>(); }\n"
	c, text, nth := scanTokens(t, src)
	directive := func(w string) int {
		for j, x := range text {
			if x == w && j > 0 && text[j-1] == "#" {
				return j - 1
			}
		}
		t.Fatalf("no #%s", w)
		return -1
	}
	for _, p := range []struct {
		what        string
		open, close int
	}{
		{"function body", nth("{", 0), nth("}", 1)},
		{"first branch's block", nth("{", 1), nth("}", 0)},
		{"#elif branch's block", nth("{", 2), directive("else")},
		{"#else branch's block", nth("{", 3), directive("endif")},
		{"host function body", nth("{", 4), nth("}", 2)},
	} {
		if got := c.Close[p.open]; int(got) != p.close {
			t.Errorf("%s: { at token %d closes at %d, want %d", p.what, p.open, got, p.close)
		}
	}
	if up := c.BraceUp[4]; up != -1 {
		t.Errorf("host function body inside brace %d, want none", up)
	}
	checkBrackets(t, src)
}
