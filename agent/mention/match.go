package mention

import (
	"sort"
	"strings"
)

// Match returns up to limit of paths that contain the letters of query in
// order (case-insensitive), best first: matches in the file name, runs of
// consecutive letters and short paths score higher. An empty query returns
// the first limit paths, shortest first.
func Match(paths []string, query string, limit int) []string {
	if limit <= 0 {
		return nil
	}
	q := strings.ToLower(strings.TrimSpace(query))
	type hit struct {
		path  string
		score int
	}
	var hits []hit
	for _, p := range paths {
		s, ok := score(p, q)
		if ok {
			hits = append(hits, hit{p, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return len(hits[i].path) < len(hits[j].path)
	})
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.path)
	}
	return out
}

// score rates p for the lower-case query q; ok is false when q's letters
// do not all occur in p in order.
func score(p, q string) (int, bool) {
	if q == "" {
		return -len(p), true
	}
	base := strings.LastIndexByte(p, '/') + 1
	s, qi, run := 0, 0, 0
	for i := 0; i < len(p) && qi < len(q); i++ {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != q[qi] {
			run = 0
			continue
		}
		qi++
		run++
		s += 1 + 2*run
		if i >= base {
			s += 3
		}
		if i == base || i > 0 && strings.IndexByte("/_-. ", p[i-1]) >= 0 {
			s += 4
		}
	}
	if qi < len(q) {
		return 0, false
	}
	if strings.Contains(strings.ToLower(p[base:]), q) {
		s += 20
	}
	return s - len(p)/8, true
}
