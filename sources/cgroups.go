package sources

import (
	"sort"
	"sync"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/lex"
)

// Cooperative groups under HIP. HIP keeps CUDA's namespace and spellings,
// so most of the API passes through; what a ROCm release lacks is either
// polyfilled (below, where a faithful definition exists) or reported by
// the table (cooperative_groups.*.tsv) at each use, whichever spelling,
// alias or using-directive reaches it (qualified.go).

// cgReduceWhy is what the reduce polyfill assumes, for its note.
const cgReduceWhy = "HIP's cooperative groups have no reduce(); the polyfill reduces a thread_block_tile<N> " +
	"with shfl_xor of width N (log2 N steps, the same on 64- and 32-wide wavefronts) and another group (a coalesced_group, " +
	"a binary_partition) by shuffling from each rank in turn; like CUDA's, every thread of the group must call it; values that " +
	"HIP's tile shuffles refuse (a struct, __half) are shuffled 32 bits at a time"

// cgReduce is reduce over a tile (any group template whose first argument
// is the tile size: HIP's thread_block_tile<N, Parent> and its bases) and,
// less specialised, over any group with rank-addressed shfl (a
// coalesced_group). Butterfly steps give every lane the same value: each
// step combines the same two operands on both partners.
const cgReduce = `template <class G, class T>
__device__ static inline T hipgen_cg_xor(const G& g, T v, unsigned int i, std::true_type) { return g.shfl_xor(v, i); }
template <class G, class T>
__device__ static inline T hipgen_cg_xor(const G& g, T v, unsigned int i, std::false_type) {
  unsigned int w[(sizeof(T) + 3) / 4] = {};
  __builtin_memcpy(w, &v, sizeof(T));
  for (unsigned int j = 0; j < (sizeof(T) + 3) / 4; ++j) w[j] = g.shfl_xor(w[j], i);
  __builtin_memcpy(&v, w, sizeof(T));
  return v;
}
template <class G, class T>
__device__ static inline T hipgen_cg_from(const G& g, T v, int r, std::true_type) { return g.shfl(v, r); }
template <class G, class T>
__device__ static inline T hipgen_cg_from(const G& g, T v, int r, std::false_type) {
  unsigned int w[(sizeof(T) + 3) / 4] = {};
  __builtin_memcpy(w, &v, sizeof(T));
  for (unsigned int j = 0; j < (sizeof(T) + 3) / 4; ++j) w[j] = g.shfl(w[j], r);
  __builtin_memcpy(&v, w, sizeof(T));
  return v;
}
template <template <unsigned int, class...> class Tile, unsigned int N, class... P, class T, class Op>
__device__ static inline T hipgen_cg_reduce(const Tile<N, P...>& g, T v, Op op) {
  for (unsigned int i = 1; i < N; i *= 2) v = op(v, hipgen_cg_xor(g, v, i, std::is_arithmetic<T>{}));
  return v;
}
template <class Group, class T, class Op>
__device__ static inline T hipgen_cg_reduce(const Group& g, T v, Op op) {
  T r = hipgen_cg_from(g, v, 0, std::is_arithmetic<T>{});
  for (unsigned int i = 1; i < warpSize; ++i) {
    T w = hipgen_cg_from(g, v, (int)i, std::is_arithmetic<T>{});
    if (i < g.size()) r = op(r, w);
  }
  return r;
}`

// cgFunctor is one of the function objects of <cooperative_groups/reduce.h>.
func cgFunctor(name, body string) polyfill {
	return polyfill{name: "hipgen_cg_" + name,
		why:  "HIP's cooperative groups have no " + name + " function object; the polyfill computes what CUDA's does (" + body + ")",
		code: "template <class T>\nstruct hipgen_cg_" + name + " {\n  __host__ __device__ T operator()(T a, T b) const { return " + body + "; }\n};"}
}

// addCGPolyfills adds the polyfills of cooperative groups to m.
func addCGPolyfills(m map[string]polyfill) {
	m["cooperative_groups::reduce"] = polyfill{name: "hipgen_cg_reduce", why: cgReduceWhy, code: cgReduce}
	m["cooperative_groups::plus"] = cgFunctor("plus", "a + b")
	m["cooperative_groups::less"] = cgFunctor("less", "b < a ? b : a")
	m["cooperative_groups::greater"] = cgFunctor("greater", "a < b ? b : a")
	m["cooperative_groups::bit_and"] = cgFunctor("bit_and", "a & b")
	m["cooperative_groups::bit_or"] = cgFunctor("bit_or", "a | b")
	m["cooperative_groups::bit_xor"] = cgFunctor("bit_xor", "a ^ b")
	for _, c := range cgMembers() {
		m[c.cuda] = c.polyfill
	}
	m[cgShuffleKey] = polyfill{name: "hipgen_cg_shfl", why: cgShuffleWhy, code: cgShuffle}
	m["cooperative_groups::binary_partition"] = polyfill{name: "hipgen_cg_binary_partition", why: cgPartitionWhy, code: cgPartition}
}

// binary_partition before ROCm 6.3. HIP's coalesced_group cannot be built
// from a lane mask outside its header, so the polyfill returns a group of
// its own: the lanes of the wavefront, within the parent tile's part of it
// (or the active lanes, for another parent), whose predicate agrees with
// the caller's, found by ballot. It has what the group functions and
// hipgen's polyfills use: size, thread_rank, shfl (by rank), shfl_up,
// shfl_down and sync.
const cgPartitionWhy = "ROCm before 6.3 has no binary_partition; the polyfill returns a group of the lanes of the parent whose " +
	"predicate agrees (found by ballot) with size(), num_threads(), thread_rank(), shfl, shfl_up, shfl_down and sync(), " +
	"which cg::reduce and the votes accept; code that names its type (cg::coalesced_group) must use auto instead"

const cgPartition = `struct hipgen_cg_lanes {
  unsigned long long mask;  // the group's lanes of the wavefront
  unsigned int meta_rank, meta_size;  // which part (the predicate) and how many: 2, or 1 when nothing split
  __device__ unsigned int meta_group_rank() const { return meta_rank; }
  __device__ unsigned int meta_group_size() const { return meta_size; }
  __device__ unsigned int size() const { return __builtin_popcountll(mask); }
  __device__ unsigned int num_threads() const { return size(); }
  __device__ unsigned int thread_rank() const { return __builtin_popcountll(mask & ((1ull << __lane_id()) - 1)); }
  __device__ int lane(unsigned int rank) const {
    unsigned long long m = mask;
    for (unsigned int i = 0; i < rank % size(); ++i) m &= m - 1;
    return __builtin_ctzll(m);
  }
  template <class T> __device__ T shfl(T v, int rank) const { return __shfl(v, lane((unsigned int)rank), warpSize); }
  template <class T> __device__ T shfl_down(T v, unsigned int d) const {
    unsigned int r = thread_rank() + d;
    T w = __shfl(v, lane(r < size() ? r : thread_rank()), warpSize);
    return w;
  }
  template <class T> __device__ T shfl_up(T v, unsigned int d) const {
    unsigned int r = thread_rank();
    return __shfl(v, lane(r >= d ? r - d : r), warpSize);
  }
  // A wavefront's lanes run in lockstep: nothing to wait for.
  __device__ void sync() const {}
};
__device__ static inline hipgen_cg_lanes hipgen_cg_split_lanes(unsigned long long parent, bool pred) {
  unsigned long long yes = __ballot(pred) & parent, no = parent & ~yes;
  unsigned int split = yes != 0 && no != 0;
  return hipgen_cg_lanes{pred ? yes : no, split && pred ? 1u : 0u, split ? 2u : 1u};
}
template <template <unsigned int, class...> class Tile, unsigned int N, class... P>
__device__ static inline hipgen_cg_lanes hipgen_cg_binary_partition(const Tile<N, P...>& g, bool pred) {
  unsigned long long tile = (N >= 64 ? ~0ull : (1ull << N) - 1) << (__lane_id() & ~(N - 1));
  return hipgen_cg_split_lanes(tile & __ballot(1), pred);
}
__device__ static inline hipgen_cg_lanes hipgen_cg_binary_partition(const hipgen_cg_lanes& g, bool pred) {
  return hipgen_cg_split_lanes(g.mask, pred);
}
// Another group (a coalesced_group): its lanes, by shuffling each rank's lane id.
template <class Group>
__device__ static inline hipgen_cg_lanes hipgen_cg_binary_partition(const Group& g, bool pred) {
  unsigned long long parent = 0;
  for (unsigned int i = 0; i < warpSize; ++i) {
    unsigned int lane = g.shfl(__lane_id(), (int)i);
    if (i < g.size()) parent |= 1ull << lane;
  }
  return hipgen_cg_split_lanes(parent, pred);
}
__device__ static inline unsigned int hipgen_cg_meta_group_rank(const hipgen_cg_lanes& g) { return g.meta_group_rank(); }
__device__ static inline unsigned int hipgen_cg_meta_group_size(const hipgen_cg_lanes& g) { return g.meta_group_size(); }`

// Group shuffles of any type. CUDA's thread_block_tile and coalesced_group
// shuffle any trivially copyable value (a uint4, a struct); HIP's forward to
// __shfl*, which takes only integers and floating point. The polyfill calls
// the group's own shuffle for integers and floating point, exactly as the
// CUDA code did, and moves any other value 32 bits at a time through it,
// which is what CUDA does.
const (
	cgShuffleKey = "cooperative_groups::thread_group::shfl"
	cgShuffleWhy = "HIP's group shuffles take only integer and floating-point values, CUDA's any trivially copyable type; " +
		"the polyfill passes those to the group's shuffle unchanged and moves any other value 32 bits at a time through it, as CUDA does"
)

const cgShuffle = `template <class T, class F>
__device__ static inline T hipgen_cg_shfl_words(const T& v, F f) {
  constexpr unsigned int n = (sizeof(T) + sizeof(int) - 1) / sizeof(int);
  int w[n] = {};
  __builtin_memcpy(w, &v, sizeof(T));
  for (unsigned int i = 0; i < n; ++i) w[i] = f(w[i]);
  T r;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}
#define HIPGEN_CG_SHUFFLE(name, Arg)                                                   \
  template <class Group, class T>                                                     \
  __device__ static inline typename std::enable_if<std::is_arithmetic<T>::value, T>::type \
  hipgen_cg_##name(const Group& g, T v, Arg a) { return g.name(v, a); }                \
  template <class Group, class T>                                                     \
  __device__ static inline typename std::enable_if<!std::is_arithmetic<T>::value, T>::type \
  hipgen_cg_##name(const Group& g, const T& v, Arg a) {                               \
    return hipgen_cg_shfl_words(v, [&](int x) { return g.name(x, a); });              \
  }
HIPGEN_CG_SHUFFLE(shfl, int)
HIPGEN_CG_SHUFFLE(shfl_up, unsigned int)
HIPGEN_CG_SHUFFLE(shfl_down, unsigned int)
HIPGEN_CG_SHUFFLE(shfl_xor, unsigned int)
#undef HIPGEN_CG_SHUFFLE`

// cgShuffles are the group shuffle members cgShuffleCall rewrites.
var cgShuffles = map[string]bool{"shfl": true, "shfl_up": true, "shfl_down": true, "shfl_xor": true}

// cgShuffleCall rewrites recv.shfl_xor(v, m) (or shfl, shfl_up,
// shfl_down; also recv->) at k into hipgen_cg_shfl_xor(recv, v, m) in a
// file that uses cooperative groups.
func (t *translator) cgShuffleCall(k int, name string) bool {
	if !(t.is(k-1, ".") || t.is(k-1, "->")) || !t.is(k+1, "(") || t.is(k+2, ")") {
		return false
	}
	if !t.usesCG() {
		return false
	}
	start := t.groupReceiver(k)
	if start < 0 {
		return false
	}
	t.memberToCall(k, start, "hipgen_cg_"+name)
	t.addPolyfill(cgShuffleKey, int(t.tok(start).Start))
	t.report(k, diag.Note, "polyfill", name+"() of a cooperative group became hipgen_cg_"+name+": "+cgShuffleWhy+oncePerFile)
	return true
}

// usesCG reports whether the file names cooperative groups at all, so a
// shfl member of some other class in other code is left alone: the
// namespace, or an API name only cooperative groups have, which a file
// that gets the namespace through a project header's alias uses
// (microsoft/DeepSpeed's "cg::thread_block tb = cg::this_thread_block();"
// under includes that say "namespace cg = cooperative_groups;").
func (t *translator) usesCG() bool {
	return t.facts.cgUse.get(func() bool {
		for _, w := range cgWords {
			if containsText(t.src, w) {
				return true
			}
		}
		return false
	})
}

// cgWords are the spellings that tell a file uses cooperative groups.
var cgWords = []string{"cooperative_groups", "this_thread_block", "thread_block_tile", "tiled_partition", "this_grid"}

// cgMember is a member function of thread_block_tile that a ROCm release
// lacks: tile.f() becomes hipgen_f(tile), and tile.f(args) becomes
// hipgen_f(tile, args).
type cgMember struct {
	cuda string // the table's name for the member
	// args: the member takes arguments (the votes and matches); such a
	// name is common enough (any, all) that only a call with arguments, in
	// a file that uses cooperative groups, is rewritten.
	args bool
	// common: the name is common enough (num_threads) that a call is
	// rewritten only in a file that uses cooperative groups and defines
	// no function of that name, like a member that takes arguments.
	common bool
	// constOnly: HIP has the member, but not const in every release
	// (ROCm 5.2's thread_block::group_index()), so only a call on a group
	// the file declares const is rewritten; the polyfill does what the
	// member does in every release.
	constOnly bool
	polyfill
}

// The block-linear thread rank, as thread_block::thread_rank() computes it.
const cgBlockRank = "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))"

// cgVoteWhy is what the vote and match polyfills do, for their notes.
const cgVoteWhy = "the polyfill combines the ranks' values with shfl_xor of width N over a thread_block_tile<N> " +
	"(log2 N steps, the same on 64- and 32-wide wavefronts) and shuffles from each rank in turn over any other group " +
	"(as many shuffles as the wavefront has lanes, on every lane alike); " +
	"masks are 32-bit, bit i for rank i, as CUDA's (ranks past 31 of a wavefront-wide coalesced_group have no bit); like CUDA's, every thread of the group must call it"

// cgMatchWhy is cgVoteWhy for match_any and match_all.
const cgMatchWhy = "the polyfill shuffles each rank's value to every thread of the group (as many shuffles as the wavefront has lanes) and compares the bits, " +
	"as CUDA does; masks are 32-bit, bit i for rank i (ranks past 31 of a wavefront-wide coalesced_group have no bit); like CUDA's, every thread of the group must call it"

// cgTileVote is a vote over a tile (butterfly steps, so every lane ends
// with the same value) and, less specialised, over any group with
// rank-addressed shfl (a coalesced_group).
func cgTileVote(name, typ, start, op, generic string) string {
	return "template <template <unsigned int, class...> class Tile, unsigned int N, class... P>\n" +
		"__device__ static inline " + typ + " hipgen_cg_" + name + "(const Tile<N, P...>& g, int pred) {\n" +
		"  " + typ + " v = " + start + ";\n" +
		"  for (unsigned int i = 1; i < N; i *= 2) v " + op + "= g.shfl_xor(v, i);\n" +
		"  return v;\n}\n" +
		"template <class Group>\n" +
		"__device__ static inline " + typ + " hipgen_cg_" + name + "(const Group& g, int pred) {\n" +
		generic + "\n}"
}

// cgMatchLoop is the loop of the match polyfills: m gets bit i where rank
// i's value has the same bits as v.
const cgMatchLoop = `  auto x = +v;  // a short or a char is matched as the int it promotes to, as in CUDA
  typedef typename std::conditional<sizeof(x) == 8, unsigned long long, unsigned int>::type U;
  static_assert(sizeof(x) == sizeof(U), "match_any and match_all take 32- and 64-bit values");
  unsigned int m = 0;
  bool same = true;
  for (unsigned int i = 0; i < warpSize; ++i) {
    bool eq = __builtin_bit_cast(U, g.shfl(x, (int)i)) == __builtin_bit_cast(U, x);
    if (i >= g.size()) continue;
    same = same && eq;
    if (i < 32) m |= (unsigned int)eq << i;
  }`

// cgDims is a polyfill of a thread_block's (and, unless grid is empty, a
// grid_group's) member that returns a dim3: one overload per group type,
// each taking a const group, so that a call on a const reference compiles
// too.
func cgDims(name, block, grid string) string {
	code := "__device__ static inline dim3 " + name + "(const cooperative_groups::thread_block&) { return " + block + "; }"
	if grid == "" {
		return code
	}
	return code + "\n" + cgGridOnly("__device__ static inline dim3 "+name+"(const cooperative_groups::grid_group&) { return "+grid+"; }")
}

// cgGridOnly puts a grid_group overload where HIP-CPU, which has no grid
// groups, does not compile it.
func cgGridOnly(code string) string {
	return "#if !defined(__HIP_CPU_RT__)\n" + code + "\n#endif"
}

var cgMembers = sync.OnceValue(func() map[string]cgMember {
	return map[string]cgMember{
		"group_dim": {cuda: "cooperative_groups::thread_block::group_dim", common: true, polyfill: polyfill{name: "hipgen_cg_group_dim",
			why:  "the block's dimensions (blockDim) for a thread_block, the grid's in blocks (gridDim) for a grid_group, as in CUDA",
			code: cgDims("hipgen_cg_group_dim", "dim3(blockDim.x, blockDim.y, blockDim.z)", "dim3(gridDim.x, gridDim.y, gridDim.z)")}},
		"dim_threads": {cuda: "cooperative_groups::thread_block::dim_threads", common: true, polyfill: polyfill{name: "hipgen_cg_dim_threads",
			why:  "the block's dimensions (blockDim) for a thread_block, the grid's in threads for a grid_group, as in CUDA",
			code: cgDims("hipgen_cg_dim_threads", "dim3(blockDim.x, blockDim.y, blockDim.z)", "dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z)")}},
		"num_threads": {cuda: "cooperative_groups::thread_block::num_threads", common: true, polyfill: polyfill{name: "hipgen_cg_num_threads",
			why: "the group's size(), which every HIP group has",
			code: "template <class Group>\n__device__ static inline unsigned int hipgen_cg_num_threads(const Group& g) { return g.size(); }\n" +
				cgGridOnly("__device__ static inline unsigned long long hipgen_cg_num_threads(const cooperative_groups::grid_group& g) { return g.size(); }")}},
		"group_index": {cuda: "cooperative_groups::thread_block::group_index", common: true, constOnly: true, polyfill: polyfill{name: "hipgen_cg_group_index",
			why:  "the group is declared const, and HIP's member is not const in ROCm 5.2; the polyfill returns the block's index in the grid (blockIdx), as the member does",
			code: cgDims("hipgen_cg_group_index", "dim3(blockIdx.x, blockIdx.y, blockIdx.z)", "")}},
		"thread_index": {cuda: "cooperative_groups::thread_block::thread_index", common: true, constOnly: true, polyfill: polyfill{name: "hipgen_cg_thread_index",
			why:  "the group is declared const, and HIP's member is not const in ROCm 5.2; the polyfill returns the thread's index in the block (threadIdx), as the member does",
			code: cgDims("hipgen_cg_thread_index", "dim3(threadIdx.x, threadIdx.y, threadIdx.z)", "")}},
		"meta_group_rank": {cuda: "cooperative_groups::thread_block_tile::meta_group_rank", polyfill: polyfill{name: "hipgen_cg_meta_group_rank",
			why:  "the polyfill assumes the tile was partitioned directly from the thread block (tiled_partition<N>(this_thread_block())) and returns the block's thread rank divided by the tile size; for a tile partitioned from another tile it is wrong",
			code: "template <class Group>\n__device__ static inline unsigned int hipgen_cg_meta_group_rank(const Group& g) { return " + cgBlockRank + " / g.size(); }"}},
		"meta_group_size": {cuda: "cooperative_groups::thread_block_tile::meta_group_size", polyfill: polyfill{name: "hipgen_cg_meta_group_size",
			why:  "the polyfill assumes the tile was partitioned directly from the thread block (tiled_partition<N>(this_thread_block())) and returns the number of tiles in the block, rounded up; for a tile partitioned from another tile it is wrong",
			code: "template <class Group>\n__device__ static inline unsigned int hipgen_cg_meta_group_size(const Group& g) { return (blockDim.x * blockDim.y * blockDim.z + g.size() - 1) / g.size(); }"}},
		"ballot": {cuda: "cooperative_groups::thread_block_tile::ballot", args: true, polyfill: polyfill{name: "hipgen_cg_ballot", why: cgVoteWhy,
			code: cgTileVote("ballot", "unsigned int", "pred ? 1u << g.thread_rank() : 0u", "|",
				"  unsigned int v = 0;\n  for (unsigned int i = 0; i < warpSize; ++i) {\n    int p = g.shfl(pred ? 1 : 0, (int)i);\n    if (i < g.size() && i < 32) v |= (unsigned int)(p != 0) << i;\n  }\n  return v;")}},
		"any": {cuda: "cooperative_groups::thread_block_tile::any", args: true, polyfill: polyfill{name: "hipgen_cg_any", why: cgVoteWhy,
			code: cgTileVote("any", "int", "pred != 0", "|",
				"  int v = 0;\n  for (unsigned int i = 0; i < warpSize; ++i) {\n    int p = g.shfl(pred != 0 ? 1 : 0, (int)i);\n    if (i < g.size()) v |= p;\n  }\n  return v;")}},
		"all": {cuda: "cooperative_groups::thread_block_tile::all", args: true, polyfill: polyfill{name: "hipgen_cg_all", why: cgVoteWhy,
			code: cgTileVote("all", "int", "pred != 0", "&",
				"  int v = 1;\n  for (unsigned int i = 0; i < warpSize; ++i) {\n    int p = g.shfl(pred != 0 ? 1 : 0, (int)i);\n    if (i < g.size()) v &= p;\n  }\n  return v;")}},
		"match_any": {cuda: "cooperative_groups::thread_block_tile::match_any", args: true, polyfill: polyfill{name: "hipgen_cg_match_any", why: cgMatchWhy,
			code: "template <class Group, class T>\n__device__ static inline unsigned int hipgen_cg_match_any(const Group& g, T v) {\n" + cgMatchLoop + "\n  return m;\n}"}},
		"match_all": {cuda: "cooperative_groups::thread_block_tile::match_all", args: true, polyfill: polyfill{name: "hipgen_cg_match_all", why: cgMatchWhy,
			code: "template <class Group, class T>\n__device__ static inline unsigned int hipgen_cg_match_all(const Group& g, T v, int& pred) {\n" + cgMatchLoop +
				"\n  pred = same;\n  return same ? (g.size() >= 32 ? 0xffffffffu : (1u << g.size()) - 1) : 0u;\n}"}},
	}
})

// cgMemberCall rewrites recv.name() or recv->name() at k (recv.name(args)
// for a member that takes arguments), where name is a group member the
// target ROCm lacks, into a call of its polyfill.
func (t *translator) cgMemberCall(k int, name string) bool {
	m, ok := cgMembers()[name]
	if !ok || !(t.is(k-1, ".") || t.is(k-1, "->")) || !t.is(k+1, "(") || t.is(k+2, ")") != !m.args {
		return false
	}
	if (m.args || m.common) && (!t.usesCG() || t.definesFunction(name)) || m.common && t.declaresFunction(name) {
		return false // no groups here, or a class of the file has its own member of that name
	}
	if e, ok := t.tbl.Identifier(m.cuda, t.ver); !m.constOnly && ok && e.Available(t.ver) {
		return false
	}
	start := t.groupReceiver(k)
	if start < 0 || m.constOnly && (start != k-2 || !t.declaredConstBlock(k-2)) {
		return false
	}
	t.memberToCall(k, start, m.name)
	t.addPolyfill(m.cuda, int(t.tok(start).Start))
	what := "thread_block_tile::" + name + "()"
	if m.args || m.common {
		what = name + "() of a cooperative group"
	}
	why := "the target ROCm lacks it; " + m.why
	if m.constOnly {
		why = m.why
	}
	t.report(k, diag.Note, "polyfill", what+" became "+m.name+": "+why+oncePerFile)
	return true
}

// groupReceiver returns where the object whose member is called at k
// begins, or -1: none found, or a built-in index (threadIdx.x is a
// number, not a group).
func (t *translator) groupReceiver(k int) int {
	start := t.receiverStart(k - 1)
	if start < 0 {
		return -1
	}
	switch string(t.text(start)) {
	case "threadIdx", "blockIdx", "blockDim", "gridDim":
		return -1
	}
	return start
}

// memberToCall rewrites recv.name(args) or recv->name(args) at k, recv
// beginning at start, into fn(recv, args); with no arguments, fn(recv).
func (t *translator) memberToCall(k, start int, fn string) {
	open := fn + "("
	if t.is(k-1, "->") {
		open += "*"
	}
	t.insert(int(t.tok(start).Start), open)
	if t.is(k+2, ")") {
		t.edits = append(t.edits, edit{int(t.tok(k - 1).Start), int(t.tok(k + 2).End), ")"})
	} else {
		t.edits = append(t.edits, edit{int(t.tok(k - 1).Start), int(t.tok(k + 1).End), ", "})
	}
}

// declaredConstBlock reports whether the identifier at k names a
// const thread_block: the nearest declaration of it before k is
// "const cg::thread_block &name" (or "thread_block const& name", with any
// qualification, reference or none); a nearer declaration of the name as
// a thread_block that is not const answers no, as does none. (A group
// declared auto counts as its thread_block namesake before it, if any: the
// polyfill's thread_block parameter then tells hipcc what it is.) Only
// declarations count, which no rewrite of a use changes, so a second
// translation decides alike. The declarations are found once per file.
func (t *translator) declaredConstBlock(k int) bool {
	f := t.facts
	f.blockDeclsOnce.Do(func() {
		f.blockDecls = map[string][]blockDecl{}
		for j := 1; j < len(t.toks); j++ {
			if t.tok(j).Kind != lex.Ident {
				continue
			}
			if isConst, ok := t.blockDeclAt(j); ok {
				name := string(t.text(j))
				f.blockDecls[name] = append(f.blockDecls[name], blockDecl{int32(j), isConst})
			}
		}
	})
	ds := f.blockDecls[string(t.text(k))]
	i := sort.Search(len(ds), func(i int) bool { return int(ds[i].at) >= k })
	return i > 0 && ds[i-1].isConst
}

// blockDecl is a declaration of a name as a thread_block: the name's
// token, and whether the group is const.
type blockDecl struct {
	at      int32
	isConst bool
}

// blockDeclAt reports whether the identifier at j is declared there as a
// thread_block (ok; reference or not) and whether it is const. A name
// after "const" and another type counts as a declaration that is not of
// a const thread_block.
func (t *translator) blockDeclAt(j int) (isConst, ok bool) {
	d := j - 1
	if t.is(d, "&") || t.is(d, "&&") {
		d--
	}
	if t.is(d, "const") {
		return t.is(d-1, "thread_block"), true
	}
	if !t.is(d, "thread_block") {
		return false, false // a use, or a declaration with another type (auto)
	}
	for d--; t.is(d, "::") && t.tok(d-1).Kind == lex.Ident; d -= 2 {
	}
	return t.is(d, "const"), true
}

// receiverStart returns the position where the object expression ending
// before the member access at dot begins (a.b[i].c, f(x).g, p->q), or -1.
func (t *translator) receiverStart(dot int) int {
	j := dot - 1
	for j >= 0 {
		switch {
		case t.is(j, ")") || t.is(j, "]"):
			o := t.matchingBack(j)
			if o < 0 {
				return -1
			}
			if t.is(o-1, ">") {
				// A call of a template: cg::tiled_partition<32>(block).
				if lt := t.templateOpenBack(o - 1); lt > 0 && t.tok(lt-1).Kind == lex.Ident {
					j = lt - 1
					continue
				}
				return -1
			}
			if t.tok(o-1).Kind == lex.Ident && !cppKeywords()[string(t.text(o-1))] || t.is(o-1, "]") || t.is(o-1, ")") {
				j = o - 1
				continue
			}
			return o
		case t.tok(j).Kind == lex.Ident:
			if t.is(j-1, ".") || t.is(j-1, "->") || t.is(j-1, "::") {
				j -= 2
				continue
			}
			return j
		default:
			return -1
		}
	}
	return -1
}

// templateOpenBack returns the position of the '<' that opens the template
// argument list closed by the '>' at k, or -1 (a statement boundary first,
// or a bracket that the list would leave unbalanced: a '(' or '[' it does
// not close, a ')' or ']' it does not open, as in the fuzzer's
// "g<).any(>(0)", whose receiver must not reach across them).
func (t *translator) templateOpenBack(k int) int {
	depth := 0
	for j := k; j >= 0; j-- {
		switch {
		case t.is(j, ">"):
			depth++
		case t.is(j, ">>"):
			depth += 2
		case t.is(j, "<"):
			depth--
			if depth == 0 {
				return j
			}
		case t.is(j, ")") || t.is(j, "]"):
			if j = t.matchingBack(j); j < 0 {
				return -1
			}
		case t.is(j, "(") || t.is(j, "[") || t.is(j, ";") || t.is(j, "{") || t.is(j, "}"):
			return -1
		}
	}
	return -1
}

// matchingBack returns the position of the bracket opening the one at k.
func (t *translator) matchingBack(k int) int {
	var o, c string
	switch {
	case t.is(k, ")"):
		o, c = "(", ")"
	case t.is(k, "]"):
		o, c = "[", "]"
	case t.is(k, "}"):
		o, c = "{", "}"
	default:
		return -1
	}
	depth := 0
	for j := k; j >= 0; j-- {
		switch {
		case t.is(j, c):
			depth++
		case t.is(j, o):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
