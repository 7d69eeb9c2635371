package sandbox

import (
	"reflect"
	"testing"
)

func TestShellWords(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"sh .tick/hooks/lint.sh", []string{"sh", ".tick/hooks/lint.sh"}},
		{`python3 "tools/my hook.py" --fast`, []string{"python3", "tools/my hook.py", "--fast"}},
		{`cd tools&&./x 'a b'|tee log`, []string{"cd", "tools", "./x", "a b", "tee", "log"}},
		{`echo "a\"b" c\ d`, []string{"echo", `a"b`, "c d"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := ShellWords(tt.line); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ShellWords(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
