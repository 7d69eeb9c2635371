package sandbox

import (
	"slices"
	"testing"
)

func TestScrubEnv(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "OPENAI_API_KEY=sk-1", "GITHUB_TOKEN=ghp",
		"aws_secret_access_key=x", "DB_Password=p", "MY_API_BASE=http://x", "KEYBOARD=us",
		"NPM_TOKEN=n", "LLM_CREDENTIAL=c",
	}
	tests := []struct {
		name        string
		drop, allow []string
		want        []string
	}{
		{"default", []string{"OPENAI_API_KEY"}, nil,
			[]string{"PATH=/usr/bin", "HOME=/home/u", "MY_API_BASE=http://x", "LLM_CREDENTIAL=c"}},
		{"allowed by name", []string{"OPENAI_API_KEY"}, []string{"NPM_TOKEN", "KEYBOARD"},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "MY_API_BASE=http://x", "KEYBOARD=us", "NPM_TOKEN=n", "LLM_CREDENTIAL=c"}},
		{"dropped by name", []string{"LLM_CREDENTIAL"}, nil,
			[]string{"PATH=/usr/bin", "HOME=/home/u", "MY_API_BASE=http://x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScrubEnv(environ, tt.drop, tt.allow)
			if !slices.Equal(got, tt.want) {
				t.Errorf("ScrubEnv = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCacheEnv(t *testing.T) {
	tests := []struct {
		dir  string
		want []string
	}{
		{"", nil},
		{"/c", []string{"XDG_CACHE_HOME=/c", "GOCACHE=/c/go-build", "npm_config_cache=/c/npm", "PIP_CACHE_DIR=/c/pip", "YARN_CACHE_FOLDER=/c/yarn"}},
	}
	for _, tt := range tests {
		if got := CacheEnv(tt.dir); !slices.Equal(got, tt.want) {
			t.Errorf("CacheEnv(%q) = %q, want %q", tt.dir, got, tt.want)
		}
	}
}
