package archdetect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/hipgen/hipgen/internal/lazyre"
)

// kfdDirs are the two places the amdgpu driver publishes its topology;
// /sys/class/kfd is normally a link to the first, but containers often
// mount only one of them.
var kfdDirs = []string{
	"/sys/devices/virtual/kfd/kfd/topology/nodes",
	"/sys/class/kfd/kfd/topology/nodes",
}

// Detect finds the GPUs of backend b on the host. Sources are tried in
// order and the first that names a GPU decides; every source tried gets a
// Step, and the ones after the decision say they were not consulted. The
// result is canonical, sorted and deduplicated, and empty when no GPU was
// found (Steps then say why, source by source).
func Detect(h Host, b Backend) ([]string, []Step) {
	h = h.withDefaults()
	type source struct {
		name string
		find func(Host) ([]string, Step)
	}
	var sources []source
	if b == ROCm {
		sources = []source{
			{"KFD sysfs", detectKFD},
			{"offload-arch", toolLister("offload-arch", parseGfxLines)},
			{"amdgpu-arch", toolLister("amdgpu-arch", parseGfxLines)},
			{"rocm_agent_enumerator", toolLister("rocm_agent_enumerator", parseGfxLines)},
			{"rocminfo", toolLister("rocminfo", parseRocminfo)},
		}
	} else {
		sources = []source{
			{"nvidia-smi", toolLister("nvidia-smi", parseComputeCaps, "--query-gpu=compute_cap", "--format=csv,noheader")},
			{"nvptx-arch", toolLister("nvptx-arch", parseSMLines)},
		}
	}
	var steps []Step
	for i, s := range sources {
		archs, st := s.find(h)
		st.Source = s.name
		steps = append(steps, st)
		if b == ROCm && i == 0 && len(archs) == 0 && !kfdDevicePresent(h) {
			// Every AMD tool after sysfs (offload-arch, amdgpu-arch,
			// rocm_agent_enumerator, rocminfo) finds GPUs through the KFD
			// driver: with neither its topology nor /dev/kfd there is
			// nothing for them to find, and starting them (rocminfo,
			// Python) costs most of a no-op build.
			for _, rest := range sources[1:] {
				steps = append(steps, Step{Source: rest.name, Note: "not consulted: no /dev/kfd and no KFD topology, so no AMD GPU is visible to any tool"})
			}
			return nil, steps
		}
		why := s.name + " found GPUs"
		if len(archs) == 0 && strings.Contains(st.Note, "keeps 0 of") {
			// The user hid every GPU; the tools after KFD do not honour
			// the *_VISIBLE_DEVICES variables and would undo that.
			why = s.name + " shows the GPUs are hidden"
		} else if len(archs) == 0 {
			continue
		}
		for _, rest := range sources[i+1:] {
			steps = append(steps, Step{Source: rest.name, Note: "not consulted: " + why})
		}
		return archs, steps
	}
	return nil, steps
}

// DecodeTargetVersion turns KFD's gfx_target_version into a processor
// name: major*10000 + minor*100 + stepping, the stepping written in hex
// (90010 is gfx90a, 90402 gfx942, 110000 gfx1100). 0 means a CPU node.
func DecodeTargetVersion(v int) (string, bool) {
	if v <= 0 {
		return "", false
	}
	major, minor, step := v/10000, v/100%100, v%100
	if minor > 9 || step > 15 {
		return "", false
	}
	return fmt.Sprintf("gfx%d%d%x", major, minor, step), true
}

type kfdNode struct {
	id      int
	arch    string
	uuid    string // "GPU-" + unique_id in hex, as ROCR_VISIBLE_DEVICES spells it
	version int
}

func detectKFD(h Host) ([]string, Step) {
	var dir string
	for _, d := range kfdDirs {
		if st, err := os.Stat(h.path(d)); err == nil && st.IsDir() {
			dir = d
			break
		}
	}
	if dir == "" {
		return nil, Step{Note: "no KFD topology under /sys: no amdgpu driver loaded, or no AMD GPU"}
	}
	nodes, unknown, err := readKFDNodes(h, dir)
	if err != nil {
		return nil, Step{Note: err.Error()}
	}
	visible, note, err := applyVisible(h, nodes)
	if err != nil {
		return nil, Step{Note: err.Error()}
	}
	var archs, vals []string
	for _, n := range visible {
		vals = append(vals, fmt.Sprintf("node %d: %d", n.id, n.version))
		archs = append(archs, n.arch)
	}
	st := Step{Value: strings.Join(vals, ", "), Archs: SortArchs(archs)}
	var notes []string
	if len(unknown) > 0 {
		notes = append(notes, "skipped processors missing from the table: "+strings.Join(unknown, ", "))
	}
	if note != "" {
		notes = append(notes, note)
	}
	if len(nodes) == 0 {
		notes = append(notes, dir+" lists only CPU nodes (gfx_target_version 0)")
	}
	st.Note = strings.Join(notes, "; ")
	return st.Archs, st
}

var propRe = lazyre.New(`(?m)^(gfx_target_version|unique_id)\s+([0-9]+)\s*$`)

// readKFDNodes returns the GPU nodes in node order; CPU nodes are dropped.
func readKFDNodes(h Host, dir string) (nodes []kfdNode, unknown []string, err error) {
	ents, err := os.ReadDir(h.path(dir))
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %v", dir, errors.Unwrap(err))
	}
	var ids []int
	for _, e := range ents {
		if id, err := strconv.Atoi(e.Name()); err == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		p := fmt.Sprintf("%s/%d/properties", dir, id)
		data, err := os.ReadFile(h.path(p))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %v", p, errors.Unwrap(err))
		}
		n := kfdNode{id: id}
		for _, m := range propRe.Get().FindAllStringSubmatch(string(data), -1) {
			v, _ := strconv.ParseUint(m[2], 10, 64)
			if m[1] == "gfx_target_version" {
				n.version = int(v)
			} else if v != 0 {
				n.uuid = fmt.Sprintf("GPU-%016x", v)
			}
		}
		arch, ok := DecodeTargetVersion(n.version)
		if !ok {
			continue
		}
		if _, known := byArch(arch); !known {
			unknown = append(unknown, fmt.Sprintf("%s (node %d)", arch, id))
			continue
		}
		n.arch = arch
		nodes = append(nodes, n)
	}
	return nodes, unknown, nil
}

// applyVisible filters GPU nodes the way the HIP runtime does:
// ROCR_VISIBLE_DEVICES picks from all GPUs, then HIP_VISIBLE_DEVICES picks
// from what is left, each by index or by UUID.
func applyVisible(h Host, nodes []kfdNode) ([]kfdNode, string, error) {
	var notes []string
	for _, name := range []string{"ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES"} {
		val, ok := lookupEnv(h, name)
		if !ok {
			continue
		}
		var keep []kfdNode
		for _, tok := range strings.Split(val, ",") {
			tok = strings.TrimSpace(tok)
			if tok == "" {
				continue
			}
			if i, err := strconv.Atoi(tok); err == nil {
				if i < 0 {
					break // HIP stops at the first invalid index
				}
				if i < len(nodes) {
					keep = append(keep, nodes[i])
				}
				continue
			}
			found := false
			for _, n := range nodes {
				if strings.EqualFold(n.uuid, tok) {
					keep, found = append(keep, n), true
				}
			}
			if !found {
				return nil, "", fmt.Errorf("%s=%q: no GPU with UUID %q", name, val, tok)
			}
		}
		notes = append(notes, fmt.Sprintf("%s=%q keeps %d of %d GPUs", name, val, len(keep), len(nodes)))
		nodes = keep
	}
	return nodes, strings.Join(notes, "; "), nil
}

// lookupEnv treats an unset and an empty variable alike, as Getenv cannot
// tell them apart.
func lookupEnv(h Host, name string) (string, bool) {
	v := h.Getenv(name)
	return v, v != ""
}

// toolLister runs a detection tool and parses its output. A missing tool
// and a failing one each give one clear line, never the tool's traceback.
func toolLister(name string, parse func(string) []string, args ...string) func(Host) ([]string, Step) {
	return func(h Host) ([]string, Step) {
		path, err := h.LookPath(name)
		if err != nil {
			return nil, Step{Note: "not found in PATH"}
		}
		out, err := h.Run(path, args...)
		if err != nil {
			return nil, Step{Note: "failed: " + oneLine(err)}
		}
		archs := parse(string(out))
		st := Step{Value: strings.Join(strings.Fields(string(out)), " "), Archs: archs}
		if len(st.Value) > 200 {
			st.Value = "" // rocminfo's report is long; the archs say what mattered
		}
		if len(archs) == 0 {
			st.Note = "ran, but reported no GPU"
		}
		return archs, st
	}
}

func oneLine(err error) string {
	var ee *ExitError
	if errors.As(err, &ee) {
		s := fmt.Sprintf("exit status %d", ee.Code)
		if strings.Contains(ee.Stderr, "Traceback (most recent call last)") {
			s += ", Python traceback"
		}
		if l := lastLine(ee.Stderr); l != "" {
			s += ": " + truncate(l, 160)
		}
		if l := lastLine(ee.Stdout); l != "" {
			s += " / " + truncate(l, 160)
		}
		return s
	}
	return truncate(err.Error(), 200)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

var gfxRe = lazyre.New(`\bgfx[0-9a-f]+(?::[a-z]+[+-])*`)

// parseGfxLines reads offload-arch, amdgpu-arch and rocm_agent_enumerator
// output: one target per line; gfx000 is the CPU agent and is dropped.
func parseGfxLines(out string) []string {
	var archs []string
	for _, f := range strings.Fields(out) {
		if f == "gfx000" {
			continue
		}
		if a, err := CanonicalROCm(f); err == nil {
			archs = append(archs, processor(a))
		}
	}
	return SortArchs(archs)
}

var rocminfoNameRe = lazyre.New(`(?m)^\s*Name:\s+(gfx[0-9a-f]+)\s*$`)

// parseRocminfo reads the agents' "Name: gfx90a" lines of rocminfo.
func parseRocminfo(out string) []string {
	var archs []string
	for _, m := range rocminfoNameRe.Get().FindAllStringSubmatch(out, -1) {
		if a, err := CanonicalROCm(m[1]); err == nil && m[1] != "gfx000" {
			archs = append(archs, a)
		}
	}
	return SortArchs(archs)
}

// parseComputeCaps reads nvidia-smi's "9.0" lines.
func parseComputeCaps(out string) []string {
	var archs []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if m := cudaDotRe.Get().FindStringSubmatch(l); m != nil && m[3] == "" {
			if _, ok := byArch("sm_" + m[1] + m[2]); ok {
				archs = append(archs, "sm_"+m[1]+m[2])
			}
		}
	}
	return SortArchs(archs)
}

// parseSMLines reads nvptx-arch's "sm_90" lines.
func parseSMLines(out string) []string {
	var archs []string
	for _, f := range strings.Fields(out) {
		if a, err := CanonicalCUDA(f); err == nil {
			archs = append(archs, a)
		}
	}
	return SortArchs(archs)
}

// kfdDevicePresent reports whether the KFD topology or the /dev/kfd device
// node exists under the host's root.
func kfdDevicePresent(h Host) bool {
	for _, p := range append([]string{"/dev/kfd"}, kfdDirs...) {
		if _, err := os.Stat(h.path(p)); err == nil {
			return true
		}
	}
	return false
}
