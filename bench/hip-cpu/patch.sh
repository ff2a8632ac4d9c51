#!/usr/bin/env bash
# Corrects a local copy of ROCm's HIP-CPU so that it can serve as an oracle
# for translated warp-level and half-precision code.
#
# 1. Upstream's __shfl, __shfl_up, __shfl_down and __shfl_xor compare the
#    absolute source lane with the width, so every shuffle with a width
#    below 64 returns wrong values outside the first width-sized segment of
#    the wavefront. This rewrites the four helpers in
#    src/include/hip/detail/intrinsics.hpp to follow AMD's hardware
#    semantics (amd_warp_functions.h: the source lane is confined to the
#    caller's segment, out-of-segment sources return the caller's own value,
#    and the permute index wraps at the wavefront size).
# 2. Upstream's include/hip/hip_fp16.h takes the low half of a __half2 from
#    its y member and the high half from x; CUDA and HIP (amd_hip_fp16.h)
#    take the low half from x, the first in memory, the low 16 bits of the
#    word. __low2float, __low2half, __low2half2, __lows2half2 and their
#    high counterparts are corrected.
# 3. Upstream numbers the threads of a multi-dimensional block with z
#    fastest and x slowest (src/include/hip/detail/types.hpp, extrude), so
#    the lanes of a wavefront of a (32, 4) block are x 0-15 of four rows;
#    CUDA and HIP number them x fastest (x + y * Dx + z * Dx * Dy), so the
#    wavefront's lanes 0-31 are row 0 and lanes 32-63 row 1. extrude is
#    rewritten that way (block indexes too, which no result depends on).
#
# 4. Upstream's include/hip/hip_api.h has __longlong_as_double but not the
#    other bit casts of HIP's device API (__double_as_longlong,
#    __float_as_int, __float_as_uint, __int_as_float, __uint_as_float), which
#    translated inline PTX uses to move a float register's bits. They are
#    added beside it, as std::bit_cast would define them.
# 5. Upstream's include/hip/hip_math.h has __mul24 but not the high halves
#    of products (__mulhi, __umulhi, __mul64hi, __umul64hi), which
#    translated mul.hi, mad.hi and madc.hi use. They are added beside it,
#    computed in 128-bit arithmetic.
#
# Usage: bench/hip-cpu/patch.sh HIP_CPU_ROOT
# It edits only the copy under HIP_CPU_ROOT (never commit that copy), and is
# idempotent: a file already patched is left alone.
set -euo pipefail

root=${1:?usage: patch.sh HIP_CPU_ROOT}
file=$root/src/include/hip/detail/intrinsics.hpp
[ -f "$file" ] || { echo "patch.sh: $file not found; is $root a HIP-CPU checkout?" >&2; exit 2; }
fp16=$root/include/hip/hip_fp16.h
[ -f "$fp16" ] || { echo "patch.sh: $fp16 not found; is $root a HIP-CPU checkout?" >&2; exit 2; }
types=$root/src/include/hip/detail/types.hpp
[ -f "$types" ] || { echo "patch.sh: $types not found; is $root a HIP-CPU checkout?" >&2; exit 2; }
api=$root/include/hip/hip_api.h
[ -f "$api" ] || { echo "patch.sh: $api not found; is $root a HIP-CPU checkout?" >&2; exit 2; }
math=$root/include/hip/hip_math.h
[ -f "$math" ] || { echo "patch.sh: $math not found; is $root a HIP-CPU checkout?" >&2; exit 2; }

# patch_once FILE runs the Python program on standard input over FILE,
# unless FILE carries the hipgen-patched mark of an earlier run.
patch_once() {
  if grep -q 'hipgen-patched' "$1"; then
    echo "patch.sh: $1 already patched"
    cat >/dev/null
  else
    python3 - "$1"
  fi
}

patch_once "$file" <<'PY'
import re, sys

path = sys.argv[1]
src = open(path).read()

# Shared prologue/epilogue: publish the value, wait for the wavefront, read
# the chosen lane, wait again so the scratchpad can be reused.
def body(name, params, index):
    return f"""T {name}(T x, {params}, std::int32_t w) noexcept
        {{   // hipgen-patched: AMD semantics, lanes confined to their segment.
            const auto tidx{{static_cast<std::int32_t>(id(Fiber::this_fiber()) % warpSize)}};

            Tile::scratchpad<T>()[tidx] = x;

            Tile::this_tile().barrier();

            {index}
            const auto r{{Tile::scratchpad<T>()[sidx & (warpSize - 1)]}};

            Tile::this_tile().barrier();

            return r;
        }}"""

repl = {
    "shuffle": body("shuffle", "std::int32_t src",
        "const std::int32_t sidx{src + (tidx & ~(w - 1))};"),
    "shuffle_down": body("shuffle_down", "std::int32_t dx",
        "const std::int32_t sidx{((tidx & (w - 1)) + dx) >= w ? tidx : tidx + dx};"),
    "shuffle_up": body("shuffle_up", "std::int32_t dx",
        "const std::int32_t sidx{(tidx - dx) < (tidx & ~(w - 1)) ? tidx : tidx - dx};"),
    "shuffle_xor": body("shuffle_xor", "std::int32_t src",
        "const std::int32_t sidx{(tidx ^ src) >= ((tidx + w) & ~(w - 1)) ? tidx : (tidx ^ src)};"),
}

count = 0
for name, new in repl.items():
    # Each upstream helper runs from "T name(T x," to the first line that is
    # exactly the closing brace of a member at this indentation.
    pat = re.compile(r"T " + name + r"\(T x,.*?\n        \}", re.S)
    src, n = pat.subn(lambda m: new, src, count=1)
    if n != 1:
        sys.exit(f"patch.sh: could not find {name} in {path}")
    count += n

open(path, "w").write(src)
print(f"patch.sh: patched {count} shuffle helpers in {path}")
PY

patch_once "$fp16" <<'PY'
import re, sys

path = sys.argv[1]
src = open(path).read()
count = 0
for name in ("__low2float", "__low2half", "__low2half2", "__lows2half2",
             "__high2float", "__high2half", "__high2half2", "__highs2half2"):
    # The body of each runs from its signature to the first closing brace
    # at the start of a line; x and y change places in it.
    pat = re.compile(r"(\b" + name + r"\(__half2 x[^)]*\) noexcept\n\{)(.*?)(\n\})", re.S)
    def swap(m):
        body = re.sub(r"\.([xy])\b", lambda v: "." + ("y" if v.group(1) == "x" else "x"), m.group(2))
        return m.group(1) + "   // hipgen-patched: the low half is x, as in CUDA and HIP" + body + m.group(3)
    src, n = pat.subn(swap, src, count=1)
    if n != 1:
        sys.exit(f"patch.sh: could not find {name} in {path}")
    count += n
open(path, "w").write(src)
print(f"patch.sh: corrected {count} half2 low/high helpers in {path}")
PY

patch_once "$types" <<'PY'
import sys

path = sys.argv[1]
src = open(path).read()
old = """                const auto a{flat_index / (x.y * x.z)};
                const auto b{(flat_index - a * x.y * x.z) / x.z};
                const auto c{flat_index - a * x.y * x.z - b * x.z};
"""
new = """                // hipgen-patched: x fastest, as CUDA and HIP number threads.
                const auto a{flat_index % x.x};
                const auto b{(flat_index / x.x) % x.y};
                const auto c{flat_index / (x.x * x.y)};
"""
if src.count(old) != 1:
    sys.exit(f"patch.sh: could not find extrude's body in {path}")
open(path, "w").write(src.replace(old, new))
print(f"patch.sh: threads numbered x fastest in {path}")
PY

patch_once "$api" <<'PY'
import sys

path = sys.argv[1]
src = open(path).read()
anchor = """inline
double __longlong_as_double(std::int64_t x) noexcept
{
    return hip::detail::bit_cast<double>(x);
}
"""
casts = [("std::int64_t", "__double_as_longlong", "double"),
         ("std::int32_t", "__float_as_int", "float"),
         ("std::uint32_t", "__float_as_uint", "float"),
         ("float", "__int_as_float", "std::int32_t"),
         ("float", "__uint_as_float", "std::uint32_t")]
added = "\n// hipgen-patched: the other bit casts of HIP's device API.\n"
for ret, name, arg in casts:
    added += f"inline\n{ret} {name}({arg} x) noexcept\n{{\n    return hip::detail::bit_cast<{ret}>(x);\n}}\n\n"
if src.count(anchor) != 1:
    sys.exit(f"patch.sh: could not find __longlong_as_double in {path}")
open(path, "w").write(src.replace(anchor, anchor + added))
print(f"patch.sh: added {len(casts)} bit casts to {path}")
PY

patch_once "$math" <<'PY'
import sys

path = sys.argv[1]
src = open(path).read()
anchor = "std::int32_t __mul24(std::int32_t x, std::int32_t y) noexcept"
i = src.find(anchor)
if i < 0 or src.count(anchor) != 1:
    sys.exit(f"patch.sh: could not find __mul24 in {path}")
# Insert before the declaration's line (and the inline or attributes on
# the line above it, if any).
start = src.rfind("\n", 0, i) + 1
above = src.rfind("\n", 0, start - 1) + 1
if src[above:start].strip() in ("inline", "__HIP_DEVICE__ inline", "constexpr inline"):
    start = above
added = """// hipgen-patched: the high halves of products, as HIP's device API has them.
inline
std::int32_t __mulhi(std::int32_t x, std::int32_t y) noexcept
{
    return static_cast<std::int32_t>((static_cast<std::int64_t>(x) * y) >> 32);
}

inline
std::uint32_t __umulhi(std::uint32_t x, std::uint32_t y) noexcept
{
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(x) * y) >> 32);
}

inline
std::int64_t __mul64hi(std::int64_t x, std::int64_t y) noexcept
{
    return static_cast<std::int64_t>((static_cast<__int128>(x) * y) >> 64);
}

inline
std::uint64_t __umul64hi(std::uint64_t x, std::uint64_t y) noexcept
{
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(x) * y) >> 64);
}

"""
open(path, "w").write(src[:start] + added + src[start:])
print(f"patch.sh: added the high halves of products to {path}")
PY
