package config

// SourceKind is where a setting came from, lowest precedence first.
type SourceKind int

// The sources, in order of precedence (later wins).
const (
	SourceDefault SourceKind = iota // built in, or a provider preset
	SourceUser                      // the user config file
	SourceProject                   // the project's .tick/config.toml
	SourceEnv                       // an environment variable
	SourceFlag                      // a command-line flag
)

// Source is where one setting came from: its kind and the file, variable,
// flag or preset.
type Source struct {
	Kind   SourceKind
	Detail string // file path, variable name, flag, or "preset NAME"
}

// String names the source for people, e.g. "env TICK_MODEL" or
// "user file /home/me/.config/tick/config.toml".
func (s Source) String() string {
	switch s.Kind {
	case SourceUser:
		return "user file " + s.Detail
	case SourceProject:
		return "project file " + s.Detail
	case SourceEnv:
		return "env " + s.Detail
	case SourceFlag:
		return "flag " + s.Detail
	}
	if s.Detail != "" {
		return s.Detail
	}
	return "default"
}

// Where is the place to point at in an error: the file, the variable or
// the flag.
func (s Source) Where() string {
	if s.Detail == "" {
		return "default"
	}
	return s.Detail
}
