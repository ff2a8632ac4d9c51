package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hipgen/hipgen/internal/textdist"
	"github.com/hipgen/hipgen/model"
)

var (
	srcExts = []string{".cu", ".cpp", ".cc", ".cxx", ".c"}
	hdrExts = []string{".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".inc"}
)

func (c *checker) targets(p *model.Project, v any) {
	if v == nil {
		c.errorf("targets", "missing required field (a list of targets, e.g. targets: [{ name: 'kernels', kind: 'library', srcs: ['csrc/*.cu'] }])")
		return
	}
	list, ok := v.([]any)
	if !ok {
		c.errorf("targets", "want a list of targets, got %s", describe(v))
		return
	}
	if len(list) == 0 {
		c.errorf("targets", "empty list; name at least one target")
		return
	}
	g := newGlobber(c.root, p.Translate.Out)
	firstIndex := map[string]int{}
	for i, tv := range list {
		field := fmt.Sprintf("targets[%d]", i)
		t := c.target(field, tv, g)
		if t == nil {
			continue
		}
		if t.Name != "" {
			if j, dup := firstIndex[t.Name]; dup {
				c.errorf(field+".name", "duplicate target name %q (also targets[%d])", t.Name, j)
			} else {
				firstIndex[t.Name] = i
			}
		}
		p.Targets = append(p.Targets, t)
	}
	c.checkDeps(p, firstIndex)
}

func (c *checker) target(field string, v any, g *globber) *model.Target {
	m, ok := c.object(field, v, targetFields)
	if !ok {
		return nil
	}
	t := &model.Target{}
	if n, present := m["name"]; !present {
		c.errorf(field+".name", "missing required field")
	} else if s, ok := c.str(field+".name", n); ok {
		if !targetRe.Get().MatchString(s) {
			c.errorf(field+".name", "%q is not a valid target name (letters, digits, '_' and '-', starting with a letter or '_')", s)
		}
		t.Name = s
	}
	if k, present := m["kind"]; !present {
		c.errorf(field+".kind", "missing required field (one of %s)", kindList())
	} else if s, ok := c.str(field+".kind", k); ok {
		t.Kind = model.Kind(s)
		if !t.Kind.Valid() {
			msg := fmt.Sprintf("unknown kind %q (want one of %s)", s, kindList())
			var names []string
			for _, k := range model.Kinds {
				names = append(names, string(k))
			}
			if sug := textdist.Closest(s, names); sug != "" {
				msg = fmt.Sprintf("unknown kind %q (did you mean %q?)", s, sug)
			}
			c.errorf(field+".kind", "%s", msg)
		}
	}
	t.Srcs = c.files(field+".srcs", m["srcs"], g, srcExts)
	t.Hdrs = c.files(field+".hdrs", m["hdrs"], g, hdrExts)
	if _, present := m["srcs"]; !present && !(t.Kind == model.KindLibrary && len(t.Hdrs) > 0) {
		c.errorf(field+".srcs", "missing required field (the target's .cu/.cpp files or globs)")
	}
	for i, inc := range c.strings(field+".includes", m["includes"]) {
		f := fmt.Sprintf("%s.includes[%d]", field, i)
		rel, err := g.dir(inc)
		if err != nil {
			c.errorf(f, "%v", err)
			continue
		}
		t.Includes = append(t.Includes, rel)
	}
	t.Defines = c.defines(field+".defines", m["defines"])
	t.Deps = c.strings(field+".deps", m["deps"])
	t.CUDAFlags = c.strings(field+".cuda_flags", m["cuda_flags"])
	t.HIPFlags = c.strings(field+".hip_flags", m["hip_flags"])
	t.CXXFlags = c.strings(field+".cxx_flags", m["cxx_flags"])
	t.Link = c.strings(field+".link", m["link"])
	return t
}

// files expands the patterns of one srcs/hdrs field into sorted, unique
// slash paths, checking each file's extension.
func (c *checker) files(field string, v any, g *globber, exts []string) []string {
	var out []string
	for i, pat := range c.strings(field, v) {
		f := fmt.Sprintf("%s[%d]", field, i)
		matches, err := g.glob(pat)
		if err != nil {
			c.errorf(f, "%v", err)
			continue
		}
		for _, m := range matches {
			if !hasExt(m, exts) {
				c.errorf(f, "%q matches %s, which is not a %s file", pat, m, strings.Join(exts, "/"))
				continue
			}
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func hasExt(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

func (c *checker) checkDeps(p *model.Project, index map[string]int) {
	names := make([]string, 0, len(p.Targets))
	for _, t := range p.Targets {
		names = append(names, t.Name)
	}
	for i, t := range p.Targets {
		seen := map[string]bool{}
		for j, d := range t.Deps {
			f := fmt.Sprintf("targets[%d].deps[%d]", i, j)
			dt := p.Target(d)
			switch {
			case dt == nil:
				msg := fmt.Sprintf("unknown target %q", d)
				if s := textdist.Closest(d, names); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				c.errorf(f, "%s", msg)
			case d == t.Name:
				c.errorf(f, "target %q depends on itself", d)
			case seen[d]:
				c.errorf(f, "duplicate dependency %q", d)
			case dt.Kind != model.KindLibrary && dt.Kind.Valid():
				c.errorf(f, "%q is a %s; only library targets can be dependencies", d, dt.Kind)
			}
			seen[d] = true
		}
	}
	c.checkCycles(p, index)
}

// checkCycles reports each dependency cycle once, at the target where the
// walk (in manifest order) first closes it.
func (c *checker) checkCycles(p *model.Project, index map[string]int) {
	const (
		unvisited = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(name string)
	visit = func(name string) {
		state[name] = active
		stack = append(stack, name)
		t := p.Target(name)
		for j, d := range t.Deps {
			if d == name || p.Target(d) == nil {
				continue
			}
			switch state[d] {
			case active:
				k := slices.Index(stack, d)
				cycle := append(slices.Clone(stack[k:]), d)
				c.errorf(fmt.Sprintf("targets[%d].deps[%d]", index[name], j), "dependency cycle: %s", strings.Join(cycle, " -> "))
			case unvisited:
				visit(d)
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done
	}
	for _, t := range p.Targets {
		if t.Name != "" && state[t.Name] == unvisited {
			visit(t.Name)
		}
	}
}

func kindList() string {
	var s []string
	for _, k := range model.Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// defines checks a list of preprocessor definitions, NAME or NAME=value.
func (c *checker) defines(field string, v any) []string {
	var out []string
	for i, d := range c.strings(field, v) {
		if !ValidDefine(d) {
			c.errorf(fmt.Sprintf("%s[%d]", field, i), "%q is not a macro definition (want NAME or NAME=value)", d)
			continue
		}
		out = append(out, d)
	}
	return out
}
