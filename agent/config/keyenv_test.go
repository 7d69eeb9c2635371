package config

import (
	"strings"
	"testing"
)

// TestUnsetAPIKeyEnvWarns: api_key_env naming a variable that is not set
// warns once (tick would otherwise send a placeholder without a word);
// set, it does not.
func TestUnsetAPIKeyEnvWarns(t *testing.T) {
	user := `provider = "corp"
model = "m"

[providers.corp]
base_url = "https://llm.corp.example/v1"
api_key_env = "CORP_LLM_KEY"
`
	for _, tt := range []struct {
		env  map[string]string
		warn bool
	}{{nil, true}, {map[string]string{"CORP_LLM_KEY": "k-123456789"}, false}} {
		s, err := Load(setup(t, user, "", tt.env))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range s.Warnings {
			if strings.Contains(w, "CORP_LLM_KEY, which is not set") {
				n++
			}
		}
		if (n == 1) != tt.warn || n > 1 {
			t.Errorf("env %v: %d warnings naming the unset variable in %q", tt.env, n, s.Warnings)
		}
	}
}
