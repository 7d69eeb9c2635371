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

// TestScrubEnvByValue: a variable whose value carries a URL's password or
// a known token shape is scrubbed whatever its name (GitLab's
// CI_REPOSITORY_URL holds the job token); ordinary URLs and words stay.
func TestScrubEnvByValue(t *testing.T) {
	for _, tt := range []struct {
		kv   string
		keep bool
	}{
		{"CI_REPOSITORY_URL=https://gitlab-ci-token:glcbt-64_abcdefghijklmnopqrst@gitlab.example.com/g/p.git", false},
		{"HTTPS_PROXY=http://user:hunter2@proxy:3128", false},
		{"GH_AUTH=ghp_abcdefghijklmnopqrstuvwxyz0123456789", false},
		{"CREDS=github_pat_11ABCDEFG0123456789_abcdefghijklmnop", false},
		{"GL=glpat-abcdefghij0123456789", false},
		{"SLACK_HOOK_ID=xoxb-1234567890-abcdefghij", false},
		{"AWS_ID=AKIAIOSFODNN7EXAMPLE", false},
		{"OPENAI=sk-proj-abcdefghijklmnop0123", false},
		{"CI_PROJECT_URL=https://gitlab.example.com/g/p", true},
		{"MY_API_BASE=http://x", true},
		{"GOFLAGS=-mod=mod", true},
		{"TASK=sk-8", true},
		{"USER_AT=https://user@host/x", true},
	} {
		got := ScrubEnv([]string{tt.kv}, nil, nil)
		if (len(got) == 1) != tt.keep {
			t.Errorf("ScrubEnv(%q) = %q, keep %v", tt.kv, got, tt.keep)
		}
	}
}
