package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The structure tests keep the rooms of the TUI apart (docs/architecture.md
// "The TUI's shape", ui/AGENTS.md) and check the rules of ui/AGENTS.md that
// a test can check.

const modulePath = "github.com/tick-agent/tick"

// sources returns the non-test Go files under dir (relative to ui/), by
// path, parsed.
func sources(t *testing.T, dir string, mode parser.Mode) map[string]*ast.File {
	t.Helper()
	out := map[string]*ast.File{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, mode)
		if err != nil {
			return err
		}
		out[path] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no Go files under %s", dir)
	}
	return out
}

// imports lists the project's packages f imports.
func imports(f *ast.File) []string {
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if strings.HasPrefix(p, modulePath+"/") {
			out = append(out, p)
		}
	}
	return out
}

// TestSubPackagesDoNotImportRoot: the parts under ui/ (style, status,
// dialog, printer, markdown, ...) never import the root; only the
// composition root ui/app (and its tests' helpers) does.
func TestSubPackagesDoNotImportRoot(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "app" || e.Name() == "testdata" {
			continue
		}
		for path, f := range sources(t, e.Name(), parser.ImportsOnly) {
			checked++
			for _, p := range imports(f) {
				if p == modulePath+"/ui" {
					t.Errorf("%s imports the root package ui", path)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d files", checked)
	}
}

// TestStyleIsALeaf: ui/style imports nothing of the project but termsafe
// and its own leaf keycap (which markdown shares), so every part can use
// it.
func TestStyleIsALeaf(t *testing.T) {
	for path, f := range sources(t, "style", parser.ImportsOnly) {
		for _, p := range imports(f) {
			if p != modulePath+"/ui/termsafe" && p != modulePath+"/ui/style/keycap" {
				t.Errorf("%s imports %s: the style leaf imports only termsafe and style/keycap", path, p)
			}
		}
	}
}

// TestDialogsNeverSeeModel: a dialog in ui/dialog reads a dialog.Context
// and returns a dialog.Action; no declaration there names a Model (a
// widget's model of another package, such as textinput.Model, is not the
// root's).
func TestDialogsNeverSeeModel(t *testing.T) {
	for path, f := range sources(t, "dialog", 0) {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Model" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "ui" {
					t.Errorf("%s names ui.Model", path)
				}
				return false // pkg.Model: checked above, never the bare Ident
			}
			if id, ok := n.(*ast.Ident); ok && id.Name == "Model" {
				t.Errorf("%s names Model", path)
			}
			return true
		})
	}
}

// TestAgentOnlyThroughItsInterface (rule 4): the root never type-asserts
// Config.Agent for more than Agent.
func TestAgentOnlyThroughItsInterface(t *testing.T) {
	for path, f := range sources(t, ".", 0) {
		if filepath.Dir(path) != "." {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok {
				return true
			}
			if sel, ok := ta.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Agent" {
				t.Errorf("%s type-asserts .Agent", path)
			}
			return true
		})
	}
}

// TestNoDialogFieldOnModel (rule 2): Model holds no field of a dialog's
// type, the root's or ui/dialog's: dialogs live on the overlay stack.
func TestNoDialogFieldOnModel(t *testing.T) {
	files := sources(t, ".", 0)
	dialogs := map[string]bool{} // the root's by name, ui/dialog's as dialog.Name
	var model *ast.StructType
	for path, f := range files {
		dir := filepath.Dir(path)
		if dir != "." && dir != "dialog" {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.Name == "Layer" {
					name := recvName(d.Recv.List[0].Type)
					if dir == "dialog" {
						name = "dialog." + name
					}
					dialogs[name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Model" && dir == "." {
						model, _ = ts.Type.(*ast.StructType)
					}
				}
			}
		}
	}
	if model == nil || len(dialogs) < 10 || !dialogs["dialog.Sessions"] || !dialogs["dialog.Models"] {
		t.Fatalf("found Model %v and %d dialog types (%v)", model != nil, len(dialogs), dialogs)
	}
	for _, fl := range model.Fields.List {
		if name := recvName(fl.Type); dialogs[name] {
			t.Errorf("Model has a field of the dialog type %s", name)
		}
	}
}

// TestDialogsTakeContext (rule 2): every dialog of ui/dialog (a type with
// a Layer method) has Update and View whose first parameter is the
// Context, so it reads only that and answers with an Action.
func TestDialogsTakeContext(t *testing.T) {
	layer, update, view := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range sources(t, "dialog", 0) {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			name := recvName(fd.Recv.List[0].Type)
			params := fd.Type.Params.List
			takesContext := len(params) > 0 && recvName(params[0].Type) == "Context"
			switch fd.Name.Name {
			case "Layer":
				layer[name] = true
			case "Update":
				update[name] = takesContext && fd.Type.Results != nil && recvName(fd.Type.Results.List[0].Type) == "Action"
			case "View":
				view[name] = takesContext
			}
		}
	}
	for _, want := range []string{"Sessions", "Models", "Proposal", "Help", "Undo", "Replace", "Diff", "ItemDiff", "TaskFocus", "TaskLog", "Approvals"} {
		if !layer[want] {
			t.Errorf("ui/dialog has no dialog %s", want)
		}
	}
	for name := range layer {
		if !update[name] || !view[name] {
			t.Errorf("dialog.%s lacks Update(Context, ...) Action or View(Context, ...)", name)
		}
	}
}

// TestNoNewModelOverlays (rule 2): no dialog sees *Model. The overlay
// stack holds only dialog.Dialog (overlay is an alias of it), and no type
// of the root is a dialog (has a Layer method) or a part that takes the
// Model (a method whose first parameter is Model or *Model). Every
// dialog moved to ui/dialog, the approval dialog last; the rule has no
// exceptions.
func TestNoNewModelOverlays(t *testing.T) {
	alias, methods := false, 0
	for path, f := range sources(t, ".", 0) {
		if filepath.Dir(path) != "." {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "overlay" {
						continue
					}
					sel, ok := ts.Type.(*ast.SelectorExpr)
					x, _ := sel.X.(*ast.Ident)
					if alias = ts.Assign.IsValid() && ok && x != nil && x.Name == "dialog" && sel.Sel.Name == "Dialog"; !alias {
						t.Errorf("%s: overlay is not an alias of dialog.Dialog", path)
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				methods++
				name := recvName(d.Recv.List[0].Type)
				if d.Name.Name == "Layer" {
					t.Errorf("%s: %s is a dialog in the root: make it a dialog.Dialog in ui/dialog", path, name)
				}
				if ps := d.Type.Params.List; name != "Model" && len(ps) > 0 && recvName(ps[0].Type) == "Model" {
					t.Errorf("%s: %s.%s sees the Model: return a dialog.Action instead", path, name, d.Name.Name)
				}
			}
		}
	}
	if !alias || methods < 100 {
		t.Fatalf("found the overlay alias %v and %d methods: the test no longer sees the root", alias, methods)
	}
}

// recvName is the type name of a receiver or field type (*T or T).
func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestNoColoursOrRawKeysInLogic (rule 5): colours are made only in
// ui/style, and no logic compares a key's text; keys match through the
// KeyMap (key.Matches).
func TestNoColoursOrRawKeysInLogic(t *testing.T) {
	bad := regexp.MustCompile(`lipgloss\.(Color|LightDark)\(|"#[0-9A-Fa-f]{6}"|\.String\(\) *(==|!=) *"|Keystroke\(\) *(==|!=)|case "(ctrl|alt|shift)\+`)
	checked := 0
	for _, dir := range []string{".", "status", "dialog", "panel", "chat", "input"} {
		for path := range sources(t, dir, parser.ImportsOnly) {
			if dir == "." && filepath.Dir(path) != "." {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for i, l := range strings.Split(string(b), "\n") {
				if bad.MatchString(l) {
					t.Errorf("%s:%d: a colour or a raw key outside ui/style: %s", path, i+1, strings.TrimSpace(l))
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d files", checked)
	}
}

// startupHooks are the func fields Config keeps: each is called once as
// the app starts (see Config), not a service the TUI asks while it runs.
var startupHooks = map[string]bool{"LateNotice": true, "ModelCheck": true, "FirstFrame": true}

// TestServicesNotCallbacks (issue 29 §4): what the app lends the TUI while
// it runs goes through Config.Services (NoServices when the app gives
// none), so Config has no other func field than the start-up hooks, and
// the root never asks whether a service is there: no `cfg.X == nil` or
// `cfg.X != nil` of a Services method's name, nor of Services itself.
func TestServicesNotCallbacks(t *testing.T) {
	var services []string
	for _, f := range sources(t, ".", 0) {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			switch ts.Name.Name {
			case "Config":
				for _, fld := range ts.Type.(*ast.StructType).Fields.List {
					if _, fn := fld.Type.(*ast.FuncType); fn && !startupHooks[fld.Names[0].Name] {
						t.Errorf("Config.%s is a callback; lend it through Services", fld.Names[0].Name)
					}
				}
			case "Services", "SessionStore", "Clipboard", "ModelStore":
				for _, fld := range ts.Type.(*ast.InterfaceType).Methods.List {
					for _, name := range fld.Names {
						services = append(services, name.Name)
					}
				}
			}
			return true
		})
	}
	if len(services) < 5 {
		t.Fatalf("found only %v of Services' methods", services)
	}
	banned := map[string]bool{"Services": true, "Sessions": true, "Resume": true, "Fork": true, "Clipboard": true, "Sandbox": true}
	for _, s := range services {
		banned[s] = true
	}
	for path, f := range sources(t, ".", 0) {
		if filepath.Dir(path) != "." {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
				return true
			}
			if sel, ok := be.X.(*ast.SelectorExpr); ok && banned[sel.Sel.Name] && isCfg(sel.X) {
				if id, ok := be.Y.(*ast.Ident); ok && id.Name == "nil" {
					t.Errorf("%s checks cfg.%s against nil; ask Services (NoServices answers for a missing one)", path, sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// isCfg reports whether e is cfg or m.cfg.
func isCfg(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "cfg"
	case *ast.SelectorExpr:
		return e.Sel.Name == "cfg"
	}
	return false
}

// rooms are the parts of the screen that live in packages of their own
// under ui/ (issue 29 §2): each a Model the root holds and routes to.
var rooms = []string{"panel", "chat", "input"}

// TestRoomsArePackages: each room is a package under ui/ with a Model and
// a New, and imports the style leaf, never the root (see
// TestSubPackagesDoNotImportRoot); the root declares no type of the
// room's old name, so its logic cannot grow back there.
func TestRoomsArePackages(t *testing.T) {
	root := map[string]bool{}
	for path, f := range sources(t, ".", 0) {
		if filepath.Dir(path) != "." {
			continue
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok {
				for _, s := range g.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						root[ts.Name.Name] = true
					}
				}
			}
		}
	}
	for _, room := range rooms {
		if root[room] {
			t.Errorf("the root declares the type %s: the %s lives in ui/%s", room, room, room)
		}
		decls, style := map[string]bool{}, false
		for _, f := range sources(t, room, 0) {
			for _, p := range imports(f) {
				style = style || p == modulePath+"/ui/style"
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						decls[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							decls[ts.Name.Name] = true
						}
					}
				}
			}
		}
		if !decls["Model"] || !decls["New"] || !style {
			t.Errorf("ui/%s: Model %v, New %v, imports ui/style %v", room, decls["Model"], decls["New"], style)
		}
	}
}
