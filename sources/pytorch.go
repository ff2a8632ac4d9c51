package sources

import (
	"strings"

	"github.com/hipgen/hipgen/diag"
	"github.com/hipgen/hipgen/sources/hipmap"
	"github.com/hipgen/hipgen/sources/lex"
)

// PyTorch extensions. ROCm PyTorch keeps PyTorch's CUDA-facing API for
// code that calls its GPUs CUDA devices (at::cuda::getCurrentDeviceProperties,
// AT_CUDA_CHECK, tensor.is_cuda()), but its headers are ATen/hip and
// c10/hip, and its streams and guards are the MasqueradingAsCUDA classes:
// an extension's sources compile for ROCm once mapped as PyTorch's own
// hipify maps them (torch.utils.hipify, which torch.utils.cpp_extension
// runs on every extension built for ROCm). The facts are the table's
// family pytorch (data/pytorch.hand.tsv, data/pytorch.headers.tsv) and
// hipify's path rule for the other ATen and c10 CUDA headers
// (pytorchHeaderPath). The names apply only in a file that uses PyTorch
// (usesPyTorch), since CUDAStream or getStreamFromPool may be a project's
// own; the headers anywhere.

// pytorchFamily is the table family of PyTorch's names and headers.
const pytorchFamily = "pytorch"

// pytorchNote is the note each file that gets one of these rewrites has
// once.
const pytorchNote = "PyTorch's CUDA API became ROCm PyTorch's, as PyTorch's hipify maps an extension's sources for a ROCm build: ATen/cuda and c10/cuda headers became ATen/hip and c10/hip ones, CUDA streams and guards the MasqueradingAsCUDA classes (ROCm PyTorch's devices still report the device type CUDA), C10_CUDA_ macros C10_HIP_ ones and USE_CUDA USE_ROCM; PyTorch for ROCm must be installed to build it" + oncePerFile

// usesPyTorch reports whether the file uses PyTorch: it includes a header
// of torch/, ATen/ or c10/, or names the namespace at, c10 or torch.
func (t *translator) usesPyTorch() bool {
	return t.facts.torchUse.get(func() bool {
		if !containsText(t.src, "torch") && !containsText(t.src, "ATen") && !containsText(t.src, "c10") {
			return false
		}
		for i, tk := range t.toks {
			switch tk.Kind {
			case lex.HeaderName, lex.String:
				if tk.Directive && t.isIncludePath(i) {
					p := strings.Trim(string(t.text(i)), `<>"`)
					if strings.HasPrefix(p, "torch/") || strings.HasPrefix(p, "ATen/") || strings.HasPrefix(p, "c10/") {
						return true
					}
				}
			case lex.Ident:
				if (t.is(i, "at") || t.is(i, "c10") || t.is(i, "torch")) && t.is(i+1, "::") &&
					!t.is(i-1, "::") && !t.is(i-1, ".") && !t.is(i-1, "->") {
					return true
				}
			}
		}
		return false
	})
}

// isIncludePath reports whether the token at i names the header of an
// #include (or #include_next, #import) directive.
func (t *translator) isIncludePath(i int) bool {
	return i >= 2 && t.is(i-2, "#") && (t.is(i-1, "include") || t.is(i-1, "include_next") || t.is(i-1, "import"))
}

// pytorchName maps the PyTorch name at k, entry e of the table's family
// pytorch, in a file that uses PyTorch, and returns the position after
// it. CUDACachingAllocator::get and ::recordStream, and
// CUDAAllocator::recordStream, are the masquerading allocator's, as in
// hipify's qualified entries.
func (t *translator) pytorchName(k int, e hipmap.Entry) int {
	if !t.usesPyTorch() || t.isMember(k) {
		return k + 1
	}
	hip := e.HIP
	if t.is(k+1, "::") && (e.CUDA == "CUDACachingAllocator" && (t.is(k+2, "get") || t.is(k+2, "recordStream")) ||
		e.CUDA == "CUDAAllocator" && t.is(k+2, "recordStream")) {
		hip = "HIPCachingAllocatorMasqueradingAsCUDA"
		if t.is(k+2, "recordStream") {
			t.replace(k+2, "recordStreamMasqueradingAsCUDA")
		}
	}
	t.replace(k, hip)
	t.count(e)
	t.report(k, diag.Note, "pytorch", pytorchNote)
	return k + 1
}

// pytorchNamespace rewrites, in a file that uses PyTorch, the namespace
// cuda at k to hip where hipify does: c10::cuda always; cuda:: before a
// name of the family pytorch that is not a macro (at::cuda::CUDAStream,
// c10::cuda::CUDAGuard); before set_device, device_synchronize,
// get_cuda_check_prefix and compat; and at::cuda::current_device. It
// reports whether it did.
func (t *translator) pytorchNamespace(k int) bool {
	if !t.is(k+1, "::") || t.tok(k+2).Kind != lex.Ident || !t.usesPyTorch() {
		return false
	}
	next := string(t.text(k + 2))
	after := t.is(k-1, "::") && t.tok(k-2).Kind == lex.Ident
	hip := false
	switch {
	case after && t.is(k-2, "c10"):
		hip = true
	case after && !t.is(k-2, "at"):
		// Another namespace's cuda (thrust::cuda, a project's own).
	case next == "set_device" || next == "device_synchronize" || next == "get_cuda_check_prefix" || next == "compat":
		hip = true
	case next == "current_device":
		hip = after // at::cuda::current_device only
	default:
		e, ok := t.lookupIdent([]byte(next))
		hip = ok && e.Family == pytorchFamily && strings.ToUpper(next) != next
	}
	if !hip {
		return false
	}
	t.replace(k, "hip")
	t.report(k, diag.Note, "pytorch", pytorchNote)
	return true
}

// pytorchHeader makes the #include of one of PyTorch's CUDA headers,
// named by the token at pk, include ROCm PyTorch's header hip: the
// table's (family pytorch) or pytorchHeaderPath's.
func (t *translator) pytorchHeader(pk int, hip string, quoted bool) {
	t.replace(pk, delimit(hip, quoted))
	t.report(pk, diag.Note, "pytorch", pytorchNote)
}

// pytorchHeaderPath applies hipify's rule to a header of ATen's or c10's
// CUDA directories (ATen/cuda, ATen/native/cuda, ATen/native/{nested,
// quantized,sparse,transformers}/cuda, c10/cuda): in the directory, cuda
// becomes hip and CUDA HIP; in the file name, cuda becomes hip and CUDA
// HIP (ATen/cuda/CUDAContext.h: ATen/hip/HIPContext.h; c10/cuda/
// CUDAException.h: c10/hip/HIPException.h). PyTorch's ROCm build makes
// its own headers so.
func pytorchHeaderPath(p string) (string, bool) {
	switch {
	case strings.HasPrefix(p, "ATen/cuda/"), strings.HasPrefix(p, "ATen/native/cuda/"), strings.HasPrefix(p, "c10/cuda/"):
	case strings.HasPrefix(p, "ATen/native/"):
		rest := strings.TrimPrefix(p, "ATen/native/")
		ok := false
		for _, d := range [...]string{"nested/", "quantized/", "sparse/", "transformers/"} {
			if strings.HasPrefix(rest, d+"cuda/") {
				ok = true
			}
		}
		if !ok {
			return "", false
		}
	default:
		return "", false
	}
	dir, file := p[:strings.LastIndexByte(p, '/')+1], p[strings.LastIndexByte(p, '/')+1:]
	dir = strings.NewReplacer("cuda", "hip", "CUDA", "HIP", "THC", "THH").Replace(dir)
	file = strings.NewReplacer("cuda", "hip", "CUDA", "HIP").Replace(file)
	return dir + file, true
}
