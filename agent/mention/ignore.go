package mention

import (
	"path"
	"strings"
)

// ignoreRule is one pattern of a .gitignore file.
type ignoreRule struct {
	base    string // the directory of the .gitignore, relative ("" at the top)
	pattern string // without leading "/" and trailing "/"
	negate  bool   // "!pattern"
	dirOnly bool   // "pattern/"
	anchor  bool   // contains a "/" (other than at the end): matched from base
}

// ignoreSet is the rules in force in a directory: its parents' and its
// own, later rules winning. A nil set ignores nothing.
type ignoreSet struct {
	rules []ignoreRule
}

// with returns the set extended by the .gitignore text of directory base.
func (s *ignoreSet) with(base, text string) *ignoreSet {
	out := &ignoreSet{}
	if s != nil {
		out.rules = append(out.rules, s.rules...)
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: base}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, `\`)
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchor = true
			line = strings.TrimPrefix(line, "/")
		}
		if line == "" {
			continue
		}
		r.pattern = line
		out.rules = append(out.rules, r)
	}
	return out
}

// ignored reports whether rel (a slash path from the root) is ignored.
func (s *ignoreSet) ignored(rel string, isDir bool) bool {
	if s == nil {
		return false
	}
	ign := false
	for _, r := range s.rules {
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(rel) {
			ign = !r.negate
		}
	}
	return ign
}

// matches reports whether the rule matches rel.
func (r ignoreRule) matches(rel string) bool {
	sub := rel
	if r.base != "" {
		if !strings.HasPrefix(rel, r.base+"/") {
			return false
		}
		sub = rel[len(r.base)+1:]
	}
	if !r.anchor {
		return globMatch(r.pattern, path.Base(sub))
	}
	return globMatch(r.pattern, sub)
}

// globMatch matches a gitignore glob: * and ? within a path element, **
// across elements.
func globMatch(pattern, name string) bool {
	if !strings.Contains(pattern, "**") {
		ok, err := path.Match(pattern, name)
		return err == nil && ok
	}
	pp := strings.Split(pattern, "/")
	np := strings.Split(name, "/")
	return matchParts(pp, np)
}

// matchParts matches path elements, ** standing for any number of them.
func matchParts(pp, np []string) bool {
	for len(pp) > 0 {
		if pp[0] == "**" {
			if len(pp) == 1 {
				return true
			}
			for i := 0; i <= len(np); i++ {
				if matchParts(pp[1:], np[i:]) {
					return true
				}
			}
			return false
		}
		if len(np) == 0 {
			return false
		}
		if ok, err := path.Match(pp[0], np[0]); err != nil || !ok {
			return false
		}
		pp, np = pp[1:], np[1:]
	}
	return len(np) == 0
}
