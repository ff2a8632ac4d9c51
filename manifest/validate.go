package manifest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/archdetect"
	"github.com/hipgen/hipgen/internal/lazyre"
	"github.com/hipgen/hipgen/internal/textdist"
	"github.com/hipgen/hipgen/model"
)

// checker walks the decoded JSON, collecting every error with its field path.
type checker struct {
	file string
	root string
	errs ErrorList
}

func (c *checker) errorf(field, format string, args ...any) {
	c.errs = append(c.errs, &Error{File: c.file, Field: field, Msg: fmt.Sprintf(format, args...)})
}

var (
	projectFields   = []string{"name", "cuda", "rocm", "translate", "cmake", "targets"}
	backendFields   = []string{"archs", "defines"}
	translateFields = []string{"out", "launch", "wave"}
	cmakeFields     = []string{"dir"}
	targetFields    = []string{"name", "kind", "srcs", "hdrs", "includes", "defines", "deps", "cuda_flags", "hip_flags", "cxx_flags", "link"}

	nameRe   = lazyre.New(`^[A-Za-z_][A-Za-z0-9_.+-]*$`)
	targetRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	defineRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*(=.*)?$`)
)

// ValidDefine reports whether d is a preprocessor definition a manifest
// may give: NAME or NAME=value.
func ValidDefine(d string) bool { return defineRe.Get().MatchString(d) }

// object checks that v is an object with only the allowed keys and returns
// it. Unknown keys are reported with the closest allowed spelling.
func (c *checker) object(field string, v any, allowed []string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		c.errorf(fieldOrTop(field), "want an object, got %s", describe(v))
		return nil, false
	}
	for _, k := range sortedKeys(m) {
		if slices.Contains(allowed, k) {
			continue
		}
		msg := fmt.Sprintf("unknown field %q", k)
		if s := textdist.Closest(k, allowed); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else {
			msg += fmt.Sprintf(" (known fields: %s)", strings.Join(allowed, ", "))
		}
		c.errorf(join(field, k), "%s", msg)
	}
	return m, true
}

func (c *checker) str(field string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		c.errorf(field, "want a string, got %s", describe(v))
	}
	return s, ok
}

// strings checks a list of non-empty strings; a missing field is an empty list.
func (c *checker) strings(field string, v any) []string {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		c.errorf(field, "want a list of strings, got %s", describe(v))
		return nil
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		s, ok := c.str(f, e)
		if !ok {
			continue
		}
		if strings.TrimSpace(s) == "" {
			c.errorf(f, "empty string")
			continue
		}
		out = append(out, s)
	}
	return out
}

func (c *checker) project(v any) *model.Project {
	p := &model.Project{}
	m, ok := c.object("", v, projectFields)
	if !ok {
		return p
	}
	if n, present := m["name"]; !present {
		c.errorf("name", "missing required field (the project's name, e.g. name: 'vecadd')")
	} else if s, ok := c.str("name", n); ok {
		if !nameRe.Get().MatchString(s) {
			c.errorf("name", "%q is not a valid project name (letters, digits, '_', '-', '.', '+'; starting with a letter or '_')", s)
		}
		p.Name = s
	}
	p.CUDA = c.backend("cuda", m["cuda"], archdetect.CanonicalCUDA)
	p.ROCm = c.backend("rocm", m["rocm"], archdetect.CanonicalROCm)
	p.Translate = c.translate(m["translate"])
	p.CMake = c.cmake(m["cmake"])
	c.targets(p, m["targets"])
	return p
}

func (c *checker) backend(field string, v any, canon func(string) (string, error)) model.Backend {
	var b model.Backend
	if v == nil {
		return b
	}
	m, ok := c.object(field, v, backendFields)
	if !ok {
		return b
	}
	b.Defines = c.defines(field+".defines", m["defines"])
	av, present := m["archs"]
	if !present {
		return b
	}
	f := field + ".archs"
	archs := c.strings(f, av)
	if list, ok := av.([]any); ok && len(list) == 0 {
		c.errorf(f, "empty architecture list (leave the field out to rely on detection, or name at least one architecture)")
	}
	seen := map[string]bool{}
	for i, a := range archs {
		ca, err := canon(a)
		if err != nil {
			c.errorf(fmt.Sprintf("%s[%d]", f, i), "%v", err)
			continue
		}
		if seen[ca] {
			c.errorf(fmt.Sprintf("%s[%d]", f, i), "duplicate architecture %q", a)
			continue
		}
		seen[ca] = true
		b.Archs = append(b.Archs, ca)
	}
	if field == "rocm" {
		if err := archdetect.CheckCombination(b.Archs); err != nil {
			c.errorf(f, "%v", err)
		}
	}
	return b
}

func (c *checker) translate(v any) model.TranslateConfig {
	t := model.TranslateConfig{Out: DefaultTranslateOut, Launch: DefaultLaunch, Wave: DefaultWave}
	if v == nil {
		return t
	}
	m, ok := c.object("translate", v, translateFields)
	if !ok {
		return t
	}
	if o, present := m["out"]; present {
		if s, ok := c.str("translate.out", o); ok {
			if rel, err := cleanRel(s); err != nil {
				c.errorf("translate.out", "%v", err)
			} else if rel == "." {
				c.errorf("translate.out", "must be a subdirectory of the project root, not the root itself (translated headers keep their names and would replace the CUDA ones)")
			} else {
				t.Out = rel
			}
		}
	}
	c.choice(m, "translate", "launch", &t.Launch, "launch style", `want "chevron" to keep <<<>>> or "ggl" for hipLaunchKernelGGL`, "chevron", "ggl")
	c.choice(m, "translate", "wave", &t.Wave, "wavefront strategy", `want "auto" for 32-lane logical warps where the code assumes 32, or "wide" to widen every warp construct to the wavefront`, "auto", "wide")
	return t
}

// choice sets *dst to the string m[key] (of the object named parent) when
// it is present and one of choices; any other string is an error that
// names what the field holds and says what it wants.
func (c *checker) choice(m map[string]any, parent, key string, dst *string, what, want string, choices ...string) {
	v, present := m[key]
	if !present {
		return
	}
	field := parent + "." + key
	s, ok := c.str(field, v)
	if !ok {
		return
	}
	if !slices.Contains(choices, s) {
		c.errorf(field, "unknown %s %q (%s)", what, s, want)
		return
	}
	*dst = s
}

func (c *checker) cmake(v any) model.CMakeConfig {
	cm := model.CMakeConfig{Dir: DefaultCMakeDir}
	if v == nil {
		return cm
	}
	m, ok := c.object("cmake", v, cmakeFields)
	if !ok {
		return cm
	}
	if d, present := m["dir"]; present {
		if s, ok := c.str("cmake.dir", d); ok {
			if rel, err := cleanRel(s); err != nil {
				c.errorf("cmake.dir", "%v", err)
			} else {
				cm.Dir = rel
			}
		}
	}
	return cm
}

func fieldOrTop(f string) string {
	if f == "" {
		return "(top level)"
	}
	return f
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// describe names a JSON value's type the way the manifest reference does.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number " + x.String()
	case string:
		return fmt.Sprintf("string %q", x)
	case []any:
		return "list"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
