package archdetect

import (
	"slices"
	"strings"
	"testing"
)

func TestDecodeTargetVersion(t *testing.T) {
	for v, want := range map[int]string{
		90000: "gfx900", 90006: "gfx906", 90008: "gfx908", 90010: "gfx90a", 90012: "gfx90c",
		90400: "gfx940", 90402: "gfx942", 90500: "gfx950", 100100: "gfx1010", 100300: "gfx1030",
		100306: "gfx1036", 110000: "gfx1100", 110501: "gfx1151", 120001: "gfx1201",
	} {
		got, ok := DecodeTargetVersion(v)
		if !ok || got != want {
			t.Errorf("DecodeTargetVersion(%d) = %q, %v; want %q", v, got, ok, want)
		}
	}
	for _, v := range []int{0, -1, 91000, 90016} {
		if got, ok := DecodeTargetVersion(v); ok {
			t.Errorf("DecodeTargetVersion(%d) = %q; want no GPU", v, got)
		}
	}
}

// Detection on each stand-in node: which source decided, and what it found.
func TestDetectStandins(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		b       Backend
		env     map[string]string
		source  string
		want    []string
		wantMsg string // in the deciding step's note, or in some step when nothing was found
	}{
		{dir: "standin-mi300x", b: ROCm, source: "KFD sysfs", want: []string{"gfx942"}},
		{dir: "standin-mi250x", b: ROCm, source: "KFD sysfs", want: []string{"gfx90a"}},
		{dir: "standin-rx7900xtx", b: ROCm, source: "KFD sysfs", want: []string{"gfx1100"}}, // only /sys/class/kfd
		{dir: "standin-mixed-mi210-rx7900xtx", b: ROCm, source: "KFD sysfs", want: []string{"gfx1100", "gfx90a"}},
		{dir: "standin-mixed-mi210-rx7900xtx", b: ROCm, env: map[string]string{"HIP_VISIBLE_DEVICES": "1"},
			source: "KFD sysfs", want: []string{"gfx1100"}, wantMsg: `HIP_VISIBLE_DEVICES="1" keeps 1 of 2 GPUs`},
		{dir: "standin-mixed-mi210-rx7900xtx", b: ROCm, env: map[string]string{"ROCR_VISIBLE_DEVICES": "GPU-4c00000000000001"},
			source: "KFD sysfs", want: []string{"gfx90a"}, wantMsg: "keeps 1 of 2"},
		{dir: "standin-mixed-mi210-rx7900xtx", b: ROCm, env: map[string]string{"ROCR_VISIBLE_DEVICES": "1,0", "HIP_VISIBLE_DEVICES": "1"},
			source: "KFD sysfs", want: []string{"gfx90a"}},
		{dir: "standin-mixed-mi210-rx7900xtx", b: ROCm, env: map[string]string{"ROCR_VISIBLE_DEVICES": "-1"},
			want: nil, wantMsg: "keeps 0 of 2"},
		// Hidden GPUs stay hidden: rocm_agent_enumerator would list them.
		{dir: "standin-mi300x", b: ROCm, env: map[string]string{"HIP_VISIBLE_DEVICES": "-1"},
			want: nil, wantMsg: "not consulted: KFD sysfs shows the GPUs are hidden"},
		{dir: "standin-cpu-only", b: ROCm, want: nil, wantMsg: "lists only CPU nodes"},
		{dir: "standin-tools-gfx000-only", b: ROCm, want: nil, wantMsg: "ran, but reported no GPU"},
		{dir: "standin-rocminfo-mi250x", b: ROCm, source: "rocminfo", want: []string{"gfx90a"}},
		{dir: "recorded-gpuless-host", b: ROCm, want: nil, wantMsg: "not consulted: no /dev/kfd and no KFD topology"},
		{dir: "standin-devkfd-tools-fail", b: ROCm, want: nil, wantMsg: "Python traceback: FileNotFoundError"},
		{dir: "standin-h100", b: CUDA, source: "nvidia-smi", want: []string{"sm_90"}},
		{dir: "standin-mixed-a100-h100", b: CUDA, source: "nvidia-smi", want: []string{"sm_80", "sm_90"}},
		{dir: "standin-nvptx-arch-l4", b: CUDA, source: "nvptx-arch", want: []string{"sm_89"}},
		{dir: "standin-nvidia-driver-down", b: CUDA, want: nil, wantMsg: "couldn't communicate with the NVIDIA driver"},
	} {
		archs, steps := Detect(fixtureHost(t, tc.dir, tc.env), tc.b)
		name := tc.dir + " " + string(tc.b)
		if !slices.Equal(archs, tc.want) {
			t.Errorf("%s %v: got %v, want %v\n%s", name, tc.env, archs, tc.want, dumpSteps(steps))
			continue
		}
		var notes []string
		decided := ""
		for _, s := range steps {
			notes = append(notes, s.Note)
			if len(s.Archs) > 0 && decided == "" {
				decided = s.Source
			}
		}
		if decided != tc.source {
			t.Errorf("%s: decided by %q, want %q", name, decided, tc.source)
		}
		if !strings.Contains(strings.Join(notes, "\n"), tc.wantMsg) {
			t.Errorf("%s: steps do not say %q:\n%s", name, tc.wantMsg, dumpSteps(steps))
		}
	}
}

// The traceback of rocm_agent_enumerator on a host without a GPU becomes
// one line; gfx000, the CPU agent, never counts as a GPU.
func TestDetectToolOutputs(t *testing.T) {
	_, steps := Detect(fixtureHost(t, "standin-devkfd-tools-fail", nil), ROCm)
	for _, s := range steps {
		if strings.Contains(s.Note, "\n") || strings.Contains(s.Note, "\x1b") {
			t.Errorf("%s: note spans lines or carries colours: %q", s.Source, s.Note)
		}
	}
	if got := parseGfxLines("gfx000\ngfx942\ngfx000\ngfx90a:xnack-\ngfx942\n"); !slices.Equal(got, []string{"gfx90a", "gfx942"}) {
		t.Errorf("parseGfxLines = %v", got)
	}
	// Once a source decides, later ones are not run.
	_, steps = Detect(fixtureHost(t, "standin-mi300x", nil), ROCm)
	for _, s := range steps[1:] {
		if !strings.HasPrefix(s.Note, "not consulted: KFD sysfs found GPUs") {
			t.Errorf("%s after KFD decided: %q", s.Source, s.Note)
		}
	}
}

func TestDetectUnknownVisibleUUID(t *testing.T) {
	_, steps := Detect(fixtureHost(t, "standin-mi300x", map[string]string{"ROCR_VISIBLE_DEVICES": "GPU-ffff"}), ROCm)
	if !strings.Contains(steps[0].Note, `no GPU with UUID "GPU-ffff"`) {
		t.Errorf("KFD step: %q", steps[0].Note)
	}
}

func dumpSteps(steps []Step) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString("  " + s.Source + ": " + strings.Join(s.Archs, ",") + " " + s.Note + "\n")
	}
	return b.String()
}
