package ui

import (
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"

	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// SetupConfig is what the first-run setup screen shows and calls. The
// functions run off the update loop.
type SetupConfig struct {
	// Dark and AskBackground are as in Config: the first frame's styles,
	// and whether to ask the terminal and restyle on its answer.
	Dark          bool
	AskBackground bool
	Version       string
	ConfigPath    string // where the choice is saved, shown to the user
	// FindLocal looks for model servers on this machine (all at once,
	// returning within about a second).
	FindLocal func(ctx context.Context) []SetupServer
	// Hosted are the hosted providers offered, in order.
	Hosted []SetupProvider
	// ListModels lists a server's models, checking the key; a refused key
	// is an error that wraps ErrKeyRefused.
	ListModels func(ctx context.Context, baseURL, apiKey string) ([]string, error)
	// Save writes the choice into the config file.
	Save func(SetupChoice) error
}

// SetupProvider is a hosted provider the setup screen offers.
type SetupProvider struct {
	Name    string // the config's provider name, e.g. "openrouter"
	Title   string // e.g. "OpenRouter"
	BaseURL string
}

// SetupServer is a model server found on this machine, with its models.
type SetupServer struct {
	Name    string // the config's provider name, e.g. "ollama"
	Title   string // e.g. "Ollama"
	BaseURL string
	Models  []string
}

// ErrKeyRefused is what SetupConfig.ListModels wraps when the server
// refused the key.
var ErrKeyRefused = errors.New("the server refused the API key")

// SetupChoice is what the user picked: a server and a model.
type SetupChoice struct {
	Provider string // the config's provider name
	Title    string
	BaseURL  string
	APIKey   string // "" for a local server or a server that needs none
	Model    string
	Local    bool // a server found on this machine
}

// ErrSetupCancelled is RunSetup's error when the user quit without
// picking a model.
var ErrSetupCancelled = errors.New("setup cancelled: no model was picked")

// RunSetup shows the setup screen until the user picks a model (which
// Config.Save has written) or quits (ErrSetupCancelled).
func RunSetup(ctx context.Context, cfg SetupConfig, opts ...tea.ProgramOption) (SetupChoice, error) {
	m := NewSetup(cfg)
	m.ctx = ctx
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, opts...)...)
	if _, err := p.Run(); err != nil {
		return SetupChoice{}, fmt.Errorf("ui: run the setup screen: %w", err)
	}
	if !m.done {
		return SetupChoice{}, ErrSetupCancelled
	}
	return m.choice, nil
}

// setupStage is the step the screen is at.
type setupStage int

const (
	stageChoose setupStage = iota // local servers and hosted providers
	stageURL                      // typing a custom URL
	stageKey                      // pasting a key
	stageModels                   // picking a model
)

// setupRow is one choice of the first stage.
type setupRow struct {
	title, detail string
	found         *SetupServer   // a local server that answered
	hosted        *SetupProvider // a hosted provider
	custom        bool           // "custom URL"
	rescan        bool           // look for local servers again
}

// Messages of the setup screen's commands.
type (
	foundMsg     []SetupServer
	setupListMsg struct {
		models []string
		err    error
	}
	setupSavedMsg struct{ err error }
)

// Setup is the first-run setup screen; *Setup implements tea.Model. Use
// NewSetup.
type Setup struct {
	cfg  SetupConfig
	ctx  context.Context
	st   *Styles
	keys SetupKeyMap

	width, height int
	stage         setupStage
	probing       bool
	found         []SetupServer
	rows          []setupRow
	sel           int
	text          textinput.Model // the URL or the key
	busy          string          // what runs now ("checking the key…"), "" when idle
	errText       string
	target        SetupChoice // the server being set up
	models        *dialog.ModelList

	choice SetupChoice
	done   bool
	frame  string // the screen as Update drew it last; View returns it
}

// NewSetup returns the setup screen for cfg.
func NewSetup(cfg SetupConfig) *Setup {
	st := DefaultStyles(cfg.Dark)
	m := &Setup{cfg: cfg, ctx: context.Background(), st: &st, keys: style.DefaultSetupKeyMap(), probing: true}
	m.text = textinput.New()
	m.buildRows()
	m.frame = m.render()
	return m
}

// Init starts looking for local servers (and asks the terminal's
// background colour when the config says to).
func (m *Setup) Init() tea.Cmd {
	if m.cfg.AskBackground {
		return tea.Batch(m.probe(), tea.RequestBackgroundColor)
	}
	return m.probe()
}

// probe looks for local servers off the update loop.
func (m *Setup) probe() tea.Cmd {
	m.probing = true
	find, ctx := m.cfg.FindLocal, m.ctx
	if find == nil {
		return func() tea.Msg { return foundMsg(nil) }
	}
	return func() tea.Msg { return foundMsg(find(ctx)) }
}

// buildRows lists the first stage's choices: the servers found, the
// hosted providers and a custom URL.
func (m *Setup) buildRows() {
	m.rows = m.rows[:0]
	for i := range m.found {
		f := &m.found[i]
		m.rows = append(m.rows, setupRow{title: f.Title, detail: hostOf(f.BaseURL) + m.st.Glyphs.Separator + style.Plural(len(f.Models), "model"), found: f})
	}
	if !m.probing && len(m.found) == 0 {
		m.rows = append(m.rows, setupRow{title: "Look again for local servers", detail: "Ollama, LM Studio, llama.cpp, vLLM, Jan", rescan: true})
	}
	for i := range m.cfg.Hosted {
		h := &m.cfg.Hosted[i]
		m.rows = append(m.rows, setupRow{title: h.Title, detail: hostOf(h.BaseURL), hosted: h})
	}
	m.rows = append(m.rows, setupRow{title: "Custom URL", detail: "any OpenAI-compatible server", custom: true})
	m.sel = max(min(m.sel, len(m.rows)-1), 0)
}

// hostOf returns the host:port of an API root, for display.
func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return base
}

// Update implements tea.Model. It draws the screen last, for View.
func (m *Setup) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if m.stage == stageModels && m.models != nil {
		m.models.Follow(m.modelRows()) // the list scrolls to the selection
	}
	m.frame = m.render()
	return m, cmd
}

// update applies one message.
func (m *Setup) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case foundMsg:
		m.probing, m.found = false, msg
		m.buildRows()
	case setupListMsg:
		return m.listed(msg)
	case setupSavedMsg:
		m.busy = ""
		if msg.err != nil {
			m.errText = "could not save: " + msg.err.Error()
			return nil
		}
		m.done = true
		return tea.Quit
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		return m.paste(msg)
	case tea.BackgroundColorMsg:
		if msg.Color != nil && msg.IsDark() != m.st.Dark {
			*m.st = DefaultStyles(msg.IsDark())
			m.text.SetStyles(m.textStyles())
		}
	}
	return nil
}

// key handles a key press at the current stage.
func (m *Setup) key(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.keys.Quit) {
		return tea.Quit
	}
	if m.busy != "" {
		return nil
	}
	if key.Matches(k, m.keys.Back) {
		m.back()
		return nil
	}
	switch m.stage {
	case stageChoose:
		return m.chooseKey(k)
	case stageURL, stageKey:
		if key.Matches(k, m.keys.Confirm) {
			return m.submitText()
		}
		var cmd tea.Cmd
		m.text, cmd = m.text.Update(k)
		m.errText = ""
		m.takeFullURL()
		return cmd
	case stageModels:
		return m.modelsKey(k)
	}
	return nil
}

// paste sends pasted text to the URL or key field, or the model filter.
func (m *Setup) paste(p tea.PasteMsg) tea.Cmd {
	switch {
	case m.busy != "":
	case m.stage == stageURL || m.stage == stageKey:
		var cmd tea.Cmd
		m.text, cmd = m.text.Update(tea.PasteMsg{Content: strings.TrimSpace(p.Content)})
		m.takeFullURL()
		return cmd
	case m.stage == stageModels:
		m.models.TypeText(style.OneLine(p.Content))
	}
	return nil
}

// back goes one stage back.
func (m *Setup) back() {
	m.errText = ""
	switch m.stage {
	case stageURL:
		m.stage = stageChoose
	case stageKey:
		if m.target.Provider == "custom" {
			m.startText(stageURL, m.target.BaseURL, false)
		} else {
			m.stage = stageChoose
		}
	case stageModels:
		if m.models.Filter() != "" {
			m.models.ClearFilter()
			return
		}
		switch {
		case m.target.Local:
			m.stage = stageChoose
		default:
			m.startText(stageKey, m.target.APIKey, true)
		}
	}
}

// chooseKey moves through the first stage's rows and picks one.
func (m *Setup) chooseKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Up):
		m.sel = max(m.sel-1, 0)
	case key.Matches(k, m.keys.Down):
		m.sel = min(m.sel+1, len(m.rows)-1)
	case key.Matches(k, m.keys.Confirm):
		return m.pick(m.rows[m.sel])
	}
	return nil
}

// pick goes on from a first-stage row.
func (m *Setup) pick(r setupRow) tea.Cmd {
	switch {
	case r.rescan:
		m.buildRows()
		return m.probe()
	case r.found != nil:
		m.target = SetupChoice{Provider: r.found.Name, Title: r.found.Title, BaseURL: r.found.BaseURL, Local: true}
		m.showModels(r.found.Models)
	case r.hosted != nil:
		m.target = SetupChoice{Provider: r.hosted.Name, Title: r.hosted.Title, BaseURL: r.hosted.BaseURL}
		m.startText(stageKey, "", true)
	case r.custom:
		m.target = SetupChoice{Provider: "custom", Title: "Custom server"}
		m.startText(stageURL, "http://", false)
	}
	return nil
}

// textStyles are the styles of the URL and key field.
func (m *Setup) textStyles() textinput.Styles {
	ts := textinput.DefaultStyles(m.st.Dark)
	ts.Cursor.Blink = false // no timer runs while the user reads
	return ts
}

// startText opens the URL (masked=false) or key field at stage.
func (m *Setup) startText(stage setupStage, value string, masked bool) {
	m.stage = stage
	m.text = textinput.New()
	m.text.Prompt = ""
	m.text.CharLimit = 4096
	m.text.SetStyles(m.textStyles())
	m.text.SetWidth(max(min(m.width-8, 80), 20))
	if masked {
		m.text.EchoMode = textinput.EchoPassword
		m.text.Placeholder = "paste the API key"
	}
	m.text.SetValue(value)
	m.text.CursorEnd()
	m.text.Focus()
}

// takeFullURL takes a full URL typed or pasted into the URL field as
// given: the field starts with "http://", so typing "https://x" or
// pasting "http://x" after it would give "http://https://x".
func (m *Setup) takeFullURL() {
	if m.stage != stageURL {
		return
	}
	if v := m.text.Value(); v != fullURL(v) {
		m.text.SetValue(fullURL(v))
		m.text.CursorEnd()
	}
}

// fullURL returns v without the "http://" the URL field starts with when
// a whole URL (with its own scheme) follows it.
func fullURL(v string) string {
	for {
		rest, ok := cutPrefixFold(v, "http://")
		if !ok {
			return v
		}
		if _, full := cutPrefixFold(rest, "http://"); !full {
			if _, full = cutPrefixFold(rest, "https://"); !full {
				return v
			}
		}
		v = rest
	}
}

// cutPrefixFold is strings.CutPrefix, ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// submitText checks a typed URL or key: a URL goes on to the key, a key
// is checked by listing the server's models.
func (m *Setup) submitText() tea.Cmd {
	v := strings.TrimSpace(m.text.Value())
	if m.stage == stageURL {
		v = fullURL(v)
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			m.errText = "the URL must start with http:// or https:// and name a host, e.g. http://127.0.0.1:8080/v1"
			return nil
		}
		m.target.BaseURL = strings.TrimRight(v, "/")
		m.startText(stageKey, "", true)
		return nil
	}
	if v == "" && m.target.Provider != "custom" {
		m.errText = m.target.Title + " needs an API key: paste it here"
		return nil
	}
	m.target.APIKey = v
	m.busy = "checking with " + hostOf(m.target.BaseURL) + "…"
	list, ctx, base := m.cfg.ListModels, m.ctx, m.target.BaseURL
	return func() tea.Msg {
		models, err := list(ctx, base, v)
		return setupListMsg{models, err}
	}
}

// listed shows the checked server's models, or why the check failed.
func (m *Setup) listed(msg setupListMsg) tea.Cmd {
	m.busy = ""
	switch {
	case errors.Is(msg.err, ErrKeyRefused):
		m.errText = "the server refused this key: check it and paste it again"
	case msg.err != nil:
		m.errText = msg.err.Error()
	default:
		m.showModels(msg.models)
	}
	return nil
}

// showModels opens the model stage over models.
func (m *Setup) showModels(models []string) {
	m.stage, m.errText = stageModels, ""
	m.models = dialog.NewModelList(models, "")
	if len(models) == 0 {
		m.errText = "the server lists no models: load or download one, then press esc and pick the server again"
	}
}

// modelsKey filters and picks a model.
func (m *Setup) modelsKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Up):
		m.models.Move(-1)
	case key.Matches(k, m.keys.Down):
		m.models.Move(1)
	case key.Matches(k, m.keys.Confirm):
		name := m.models.Selected()
		if name == "" {
			return nil
		}
		m.choice = m.target
		m.choice.Model = name
		m.busy = "saving " + m.cfg.ConfigPath + "…"
		save, ch := m.cfg.Save, m.choice
		return func() tea.Msg {
			if save == nil {
				return setupSavedMsg{}
			}
			return setupSavedMsg{save(ch)}
		}
	case key.Matches(k, m.keys.Erase):
		m.models.Backspace()
	case k.Text != "":
		m.models.TypeText(k.Text)
	}
	return nil
}
