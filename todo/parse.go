package todo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// statusAliases maps the spellings models commonly use to a Status. Keys are
// lower case with spaces and dashes turned into underscores.
var statusAliases = map[string]Status{
	"pending":     Pending,
	"todo":        Pending,
	"to_do":       Pending,
	"not_started": Pending,
	"open":        Pending,
	"in_progress": InProgress,
	"inprogress":  InProgress,
	"active":      InProgress,
	"running":     InProgress,
	"doing":       InProgress,
	"started":     InProgress,
	"wip":         InProgress,
	"completed":   Completed,
	"complete":    Completed,
	"done":        Completed,
	"finished":    Completed,
	"cancelled":   Cancelled,
	"canceled":    Cancelled,
	"skipped":     Cancelled,
	"dropped":     Cancelled,
	"abandoned":   Cancelled,
}

// ParseStatus normalises a status as a model may write it ("Done",
// "in-progress", "canceled") to a Status, or returns an error that names the
// valid values.
func ParseStatus(s string) (Status, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer(" ", "_", "-", "_").Replace(k)
	if st, ok := statusAliases[k]; ok {
		return st, nil
	}
	return "", fmt.Errorf("unknown status %q: use one of pending, in_progress, completed, cancelled", s)
}

// wireItem is an item as the model sends it: the id may be a number, and
// unknown fields are tolerated.
type wireItem struct {
	ID         json.RawMessage `json:"id"`
	Text       string          `json:"text"`
	Content    string          `json:"content"` // a common alias for text
	Status     string          `json:"status"`
	ActiveForm string          `json:"active_form"`
	ActiveAlt  string          `json:"activeForm"`
	Note       string          `json:"note"`
}

type wireList struct {
	Goal  string     `json:"goal"`
	Items []wireItem `json:"items"`
	Todos []wireItem `json:"todos"` // a common alias for items
}

// Parse decodes the arguments of a todo call and validates them. It returns
// the new list, or an error saying what to fix; the error never mentions
// more than the first problem found in each item.
func Parse(args []byte) (List, error) { return ParseWith(args, nil) }

// ParseWith is Parse for a plan some of whose items subagents work on:
// the items taskOwned reports may be in_progress besides the one item the
// model works on itself (see ValidateWith).
func ParseWith(args []byte, taskOwned func(id string) bool) (List, error) {
	var w wireList
	dec := json.NewDecoder(bytes.NewReader(args))
	if err := dec.Decode(&w); err != nil {
		return List{}, fmt.Errorf("arguments are not a JSON object with \"items\": %w", err)
	}
	items := w.Items
	if items == nil {
		items = w.Todos
	}
	if items == nil {
		return List{}, errors.New(`missing "items": send the complete list every call, e.g. {"items":[{"id":"1","text":"...","status":"pending"}]}`)
	}
	l := List{Goal: oneLine(w.Goal), Items: make([]Item, 0, len(items))}
	for i, wi := range items {
		it, err := wi.item(i)
		if err != nil {
			return List{}, err
		}
		l.Items = append(l.Items, it)
	}
	if err := l.ValidateWith(taskOwned); err != nil {
		return List{}, err
	}
	return l, nil
}

func (wi wireItem) item(i int) (Item, error) {
	id, err := parseID(wi.ID)
	if err != nil {
		return Item{}, fmt.Errorf("item %d: %w", i+1, err)
	}
	if id == "" {
		id = strconv.Itoa(i + 1)
	}
	text := wi.Text
	if text == "" {
		text = wi.Content
	}
	af := wi.ActiveForm
	if af == "" {
		af = wi.ActiveAlt
	}
	st := Pending
	if wi.Status != "" {
		st, err = ParseStatus(wi.Status)
		if err != nil {
			return Item{}, fmt.Errorf("item #%s: %w", id, err)
		}
	}
	return Item{ID: id, Text: oneLine(text), Status: st, ActiveForm: oneLine(af), Note: oneLine(wi.Note)}, nil
}

// parseID accepts a JSON string or number as an id.
func parseID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimPrefix(strings.TrimSpace(s), "#"), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("id must be a string or a number, got %s", raw)
}

// oneLine trims s and folds its line breaks into spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Validate checks the rules of docs/architecture.md: at most MaxItems items, no empty
// text, unique ids, known statuses, at most one item in progress, and a
// note on every cancelled item.
func (l List) Validate() error { return l.ValidateWith(nil) }

// ValidateWith is Validate where the items taskOwned reports (nil: none),
// worked on by a subagent (a task naming the item), do not count toward the one item in
// progress: several tasks' items may be in_progress at once, plus one
// item the model works on itself.
func (l List) ValidateWith(taskOwned func(id string) bool) error {
	if len(l.Items) > MaxItems {
		return fmt.Errorf("%d items is too many: keep the list to at most %d (merge small steps)", len(l.Items), MaxItems)
	}
	seen := make(map[string]bool, len(l.Items))
	var running []string
	for i, it := range l.Items {
		if it.ID == "" {
			return fmt.Errorf("item %d has an empty id", i+1)
		}
		if seen[it.ID] {
			return fmt.Errorf("id %q is used twice: every item needs its own id", it.ID)
		}
		seen[it.ID] = true
		if strings.TrimSpace(it.Text) == "" {
			return fmt.Errorf("item #%s has empty text", it.ID)
		}
		switch it.Status {
		case Pending, Completed:
		case InProgress:
			if taskOwned == nil || !taskOwned(it.ID) {
				running = append(running, "#"+it.ID)
			}
		case Cancelled:
			if strings.TrimSpace(it.Note) == "" {
				return fmt.Errorf("item #%s is cancelled without a note: say why in \"note\"", it.ID)
			}
		default:
			return fmt.Errorf("item #%s: unknown status %q: use one of pending, in_progress, completed, cancelled", it.ID, it.Status)
		}
	}
	if len(running) > 1 {
		return fmt.Errorf("%d items are in_progress (%s): at most one may be in_progress at a time", len(running), strings.Join(running, ", "))
	}
	return nil
}
