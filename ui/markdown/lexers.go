package markdown

import (
	"strings"

	c "github.com/alecthomas/chroma/v2"
)

// The lexers of the languages tick highlights, written for tick from the
// languages' grammars: they tell keywords, types, built-ins, names of
// functions, strings, numbers, comments and punctuation apart, which is
// what the themes colour; they do not try to be complete grammars. Each
// is built (its rules compiled) the first time a code block asks for it.

// languages returns the languages tick highlights.
func languages() []language {
	return []language{
		{[]string{"go", "golang"}, goLexer},
		{[]string{"python", "py", "python3", "py3"}, pythonLexer},
		{[]string{"javascript", "js", "jsx", "mjs", "cjs", "node"}, func() c.Lexer { return jsLexer("JavaScript", false) }},
		{[]string{"typescript", "ts", "tsx", "mts", "cts"}, func() c.Lexer { return jsLexer("TypeScript", true) }},
		{[]string{"json", "jsonc", "json5", "jsonl"}, jsonLexer},
		{[]string{"yaml", "yml"}, yamlLexer},
		{[]string{"toml"}, tomlLexer},
		{[]string{"bash", "sh", "shell", "zsh", "ksh", "shellscript"}, bashLexer},
		{[]string{"console", "shell-session", "terminal", "sh-session"}, consoleLexer},
		{[]string{"diff", "patch", "udiff"}, diffLexer},
		{[]string{"rust", "rs"}, rustLexer},
		{[]string{"c", "h"}, func() c.Lexer { return cLexer("C", false) }},
		{[]string{"cpp", "c++", "cc", "cxx", "hpp", "hh", "hxx"}, func() c.Lexer { return cLexer("C++", true) }},
		{[]string{"java"}, javaLexer},
		{[]string{"sql", "mysql", "postgresql", "postgres", "psql", "sqlite", "plpgsql"}, sqlLexer},
		{[]string{"html", "xml", "xhtml", "svg", "htm", "vue"}, markupLexer},
		{[]string{"css", "scss", "less"}, cssLexer},
		{[]string{"dockerfile", "docker", "containerfile"}, dockerLexer},
		{[]string{"makefile", "make", "mk", "mak"}, makeLexer},
		{[]string{"ruby", "rb"}, rubyLexer},
	}
}

// kw returns a pattern matching any of the space-separated words, whole.
func kw(words string) string {
	return `\b(?:` + strings.Join(strings.Fields(words), "|") + `)\b`
}

// rl is one rule: text matching pattern is emitted as t, then m changes
// the lexer's state (nil: none).
func rl(pattern string, t c.Emitter, m c.Mutator) c.Rule {
	return c.Rule{Pattern: pattern, Type: t, Mutator: m}
}

func newLexer(name string, rules func() c.Rules) c.Lexer {
	return c.MustNewLexer(&c.Config{Name: name, EnsureNL: true}, rules)
}

// cComments are C's comments, which many languages share.
func cComments() []c.Rule {
	return []c.Rule{
		rl(`//[^\n]*`, c.CommentSingle, nil),
		rl(`/\*[\s\S]*?(?:\*/|\z)`, c.CommentMultiline, nil),
	}
}

func cStrings() []c.Rule {
	return []c.Rule{
		rl(`"(?:\\[\s\S]|[^"\\\n])*"?`, c.LiteralString, nil),
		rl(`'(?:\\[\s\S]|[^'\\\n])*'?`, c.LiteralStringChar, nil),
	}
}

func numbers() c.Rule {
	return rl(`(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.[\d_]+)?(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?)[a-zA-Z]*`, c.LiteralNumber, nil)
}

// tail is what ends most lexers: calls, names, operators, punctuation.
func tail() []c.Rule {
	return []c.Rule{
		rl(`([A-Za-z_$][\w$]*)(\s*)(\()`, c.ByGroups(c.NameFunction, c.Text, c.Punctuation), nil),
		rl(`[A-Za-z_$][\w$]*`, c.Name, nil),
		rl(`[-+*/%&|^!=<>~?:@]+`, c.Operator, nil),
		rl(`[()\[\]{},.;]`, c.Punctuation, nil),
		rl(`\s+`, c.Text, nil),
		rl(`.`, c.Text, nil),
	}
}

func rules(parts ...[]c.Rule) []c.Rule {
	var out []c.Rule
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func goLexer() c.Lexer {
	return newLexer("Go", func() c.Rules {
		return c.Rules{"root": rules(cComments(), []c.Rule{
			rl(kw("package import"), c.KeywordNamespace, nil),
			rl(kw("func type var const"), c.KeywordDeclaration, nil),
			rl(kw("break case chan continue default defer else fallthrough for go goto if interface map range return select struct switch"), c.Keyword, nil),
			rl(kw("true false iota nil"), c.KeywordConstant, nil),
			rl(kw("bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable"), c.KeywordType, nil),
			rl(kw("append cap clear close complex copy delete imag len make max min new panic print println real recover")+`(?=\s*\()`, c.NameBuiltin, nil),
			rl("`[^`]*`?", c.LiteralString, nil),
		}, cStrings(), []c.Rule{numbers()}, tail())}
	})
}

func pythonLexer() c.Lexer {
	return newLexer("Python", func() c.Rules {
		return c.Rules{"root": rules([]c.Rule{
			rl(`#[^\n]*`, c.CommentSingle, nil),
			rl(`(?i)[rbuf]{0,2}(?:"""[\s\S]*?(?:"""|\z)|'''[\s\S]*?(?:'''|\z))`, c.LiteralStringDoc, nil),
			rl(`(?i)[rbuf]{0,2}(?:"(?:\\[\s\S]|[^"\\\n])*"?|'(?:\\[\s\S]|[^'\\\n])*'?)`, c.LiteralString, nil),
			rl(`@[\w.]+`, c.NameDecorator, nil),
			rl(`(def)(\s+)(\w+)`, c.ByGroups(c.Keyword, c.Text, c.NameFunction), nil),
			rl(`(class)(\s+)(\w+)`, c.ByGroups(c.Keyword, c.Text, c.NameClass), nil),
			rl(kw("import from as"), c.KeywordNamespace, nil),
			rl(kw("and assert async await break class continue def del elif else except finally for global if in is lambda nonlocal not or pass raise return try while with yield match case"), c.Keyword, nil),
			rl(kw("True False None"), c.KeywordConstant, nil),
			rl(kw("self cls"), c.NameBuiltinPseudo, nil),
			rl(`:(?!=)`, c.Punctuation, nil),
			rl(kw("abs all any bin bool bytes callable chr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max min next object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip Exception ValueError TypeError KeyError IndexError RuntimeError"), c.NameBuiltin, nil),
			numbers(),
		}, tail())}
	})
}

func jsLexer(name string, ts bool) c.Lexer {
	keywords := "break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new of return super switch this throw try typeof var void while with yield async await static get set from as"
	types := ""
	if ts {
		keywords += " interface type enum implements namespace declare readonly private protected public abstract keyof infer is satisfies override"
		types = "string number boolean any unknown never object bigint symbol void"
	}
	return newLexer(name, func() c.Rules {
		root := rules(cComments(), []c.Rule{
			rl("`(?:\\\\[\\s\\S]|[^`\\\\])*`?", c.LiteralStringBacktick, nil),
			rl(`"(?:\\[\s\S]|[^"\\\n])*"?`, c.LiteralStringDouble, nil),
			rl(`'(?:\\[\s\S]|[^'\\\n])*'?`, c.LiteralStringSingle, nil),
			rl(`(</?)([A-Za-z][\w.]*)`, c.ByGroups(c.Punctuation, c.NameTag), nil),
			rl(kw("import export from"), c.KeywordNamespace, nil),
			rl(kw(keywords), c.Keyword, nil),
			rl(kw("true false null undefined NaN Infinity"), c.KeywordConstant, nil),
		})
		if types != "" {
			root = append(root, rl(kw(types), c.KeywordType, nil))
		}
		root = append(root, rl(kw("console window document globalThis process require module exports Math JSON Promise Object Array String Number Boolean Date Error Map Set RegExp Symbol"), c.NameBuiltin, nil), numbers())
		return c.Rules{"root": append(root, tail()...)}
	})
}

func jsonLexer() c.Lexer {
	return newLexer("JSON", func() c.Rules {
		return c.Rules{"root": rules(cComments(), []c.Rule{
			rl(`("(?:\\[\s\S]|[^"\\\n])*")(\s*)(:)`, c.ByGroups(c.NameTag, c.Text, c.Punctuation), nil),
			rl(`"(?:\\[\s\S]|[^"\\\n])*"?`, c.LiteralStringDouble, nil),
			rl(kw("true false null"), c.KeywordConstant, nil),
			rl(`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`, c.LiteralNumber, nil),
			rl(`[{}\[\],:]`, c.Punctuation, nil),
			rl(`\s+`, c.Text, nil),
			rl(`.`, c.Text, nil),
		})}
	})
}

func yamlLexer() c.Lexer {
	return newLexer("YAML", func() c.Rules {
		return c.Rules{"root": {
			rl(`#[^\n]*`, c.CommentSingle, nil),
			rl(`^(?:---|\.\.\.)(?=\s|$)`, c.NameNamespace, nil),
			// A key ends in a character that is not a space, so that the
			// spaces before its colon are matched one way only (a lazy key
			// and the spaces both taking them was quadratic in the line).
			rl(`^(\s*)(-\s+)?([^\s:#'"\-](?:[^:#\n]*[^\s:#\n])?|"[^"\n]*"|'[^'\n]*')(\s*)(:)(?=\s|$)`, c.ByGroups(c.Text, c.Punctuation, c.NameTag, c.Text, c.Punctuation), nil),
			rl(`^(\s*)(-)(?=\s|$)`, c.ByGroups(c.Text, c.Punctuation), nil),
			rl(`"(?:\\[\s\S]|[^"\\\n])*"?|'(?:''|[^'\n])*'?`, c.LiteralString, nil),
			rl(`[&*][\w-]+`, c.NameLabel, nil),
			rl(`![\w!/]*`, c.KeywordType, nil),
			rl(`(?<=[\s:\-\[,])(?:true|false|yes|no|on|off|null|~)(?=\s*(?:$|#|,|\]|\}))`, c.KeywordConstant, nil),
			rl(`(?<=[\s:\-\[,])[-+]?(?:0x[0-9a-fA-F]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*(?:$|#|,|\]|\}))`, c.LiteralNumber, nil),
			rl(`[|>][-+]?\d*(?=\s*$)`, c.Punctuation, nil),
			rl(`[{}\[\],]`, c.Punctuation, nil),
			rl(`[^\s#{}\[\],]+`, c.Text, nil),
			rl(`\s+`, c.Text, nil),
			rl(`.`, c.Text, nil),
		}}
	})
}

func tomlLexer() c.Lexer {
	return newLexer("TOML", func() c.Rules {
		return c.Rules{"root": {
			rl(`#[^\n]*`, c.CommentSingle, nil),
			rl(`^(\s*)(\[\[?)([^\]\n]*)(\]\]?)`, c.ByGroups(c.Text, c.Punctuation, c.Keyword, c.Punctuation), nil),
			rl(`^(\s*)([\w.\-"']+?)(\s*)(=)`, c.ByGroups(c.Text, c.NameAttribute, c.Text, c.Operator), nil),
			rl(`"""[\s\S]*?(?:"""|\z)|'''[\s\S]*?(?:'''|\z)`, c.LiteralString, nil),
			rl(`"(?:\\[\s\S]|[^"\\\n])*"?|'[^'\n]*'?`, c.LiteralString, nil),
			rl(`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?`, c.LiteralDate, nil),
			rl(kw("true false inf nan"), c.KeywordConstant, nil),
			rl(`[-+]?(?:0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|\d[\d_]*(?:\.[\d_]+)?(?:[eE][+-]?\d+)?)`, c.LiteralNumber, nil),
			rl(`[{}\[\],.=]`, c.Punctuation, nil),
			rl(`[\w-]+`, c.Name, nil),
			rl(`\s+`, c.Text, nil),
			rl(`.`, c.Text, nil),
		}}
	})
}

// shellRules are the rules of a shell command line; newlines are a
// state's own business (console pops at them).
func shellRules() []c.Rule {
	return []c.Rule{
		rl(`(?<![\w$}#])#[^\n]*`, c.CommentSingle, nil),
		rl(`"(?:\\[\s\S]|[^"\\])*"?`, c.LiteralStringDouble, nil),
		rl(`'[^']*'?`, c.LiteralStringSingle, nil),
		rl(`\$\{[^}\n]*\}?|\$\(\(?|\$[\w@#?$!*-]`, c.NameVariable, nil),
		rl(`(?<![\w-])(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|in|function|select|return|exit|break|continue|local|export|readonly|declare|set|unset|source|alias|time|eval|exec|trap|shift)(?![\w-])`, c.Keyword, nil),
		rl(`(?<![\w-])(?:echo|printf|cd|pwd|read|test|true|false|sudo|cat|grep|sed|awk|ls|rm|cp|mv|mkdir|chmod|chown|curl|wget|git|go|make|npm|npx|pip|python|python3|docker|kubectl|tar|find|xargs|sort|uniq|head|tail|wc|tr|cut|tee|touch|ln|env|which|apt|apt-get|brew|yarn|pnpm|cargo|node)(?![\w-])`, c.NameBuiltin, nil),
		rl(`(?<=\s)--?[\w][\w-]*=?`, c.NameAttribute, nil),
		rl(`\d+(?![\w.-])`, c.LiteralNumber, nil),
		rl(`&&|\|\||;;|[|&;<>()]|[\[\]{}]`, c.Operator, nil),
		rl(`\\[\s\S]`, c.LiteralStringEscape, nil),
		rl(`[^\s"'$#|&;<>()\[\]{}\\]+`, c.Text, nil),
		rl(`[^\S\n]+`, c.Text, nil),
		rl(`.`, c.Text, nil),
	}
}

func bashLexer() c.Lexer {
	return newLexer("Bash", func() c.Rules {
		return c.Rules{"root": append([]c.Rule{rl(`\n`, c.Text, nil)}, shellRules()...)}
	})
}

// consoleLexer reads a terminal session: a line after a prompt ("$ ",
// "# ", "> ", "% ") is a shell command, any other line output.
func consoleLexer() c.Lexer {
	return newLexer("Console", func() c.Rules {
		return c.Rules{
			"root": {
				rl(`^([$#>%] ?)`, c.GenericPrompt, c.Push("command")),
				rl(`[^\n]*\n?`, c.GenericOutput, nil),
			},
			"command": append([]c.Rule{rl(`\n`, c.Text, c.Pop(1))}, shellRules()...),
		}
	})
}

func diffLexer() c.Lexer {
	return newLexer("Diff", func() c.Rules {
		return c.Rules{"root": {
			rl(`^(?:diff|index|new file|deleted file|similarity|rename)[^\n]*\n?`, c.GenericHeading, nil),
			rl(`^(?:\+\+\+|---)[^\n]*\n?`, c.GenericStrong, nil),
			rl(`^@@[^\n]*\n?`, c.GenericSubheading, nil),
			rl(`^\+[^\n]*\n?`, c.GenericInserted, nil),
			rl(`^-[^\n]*\n?`, c.GenericDeleted, nil),
			rl(`^![^\n]*\n?`, c.GenericStrong, nil),
			rl(`[^\n]*\n?`, c.Text, nil),
		}}
	})
}

func rustLexer() c.Lexer {
	return newLexer("Rust", func() c.Rules {
		return c.Rules{"root": rules(cComments(), []c.Rule{
			rl(`#!?\[[^\]\n]*\]?`, c.CommentPreproc, nil),
			rl(`b?r(#*)"[\s\S]*?(?:"\1|\z)`, c.LiteralString, nil), // unclosed: to the end (no rescan from every r)
			rl(`b?"(?:\\[\s\S]|[^"\\])*"?`, c.LiteralString, nil),
			rl(`b?'(?:\\(?:[nrt'"\\0]|x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\})|[^\\'\n])'`, c.LiteralStringChar, nil),
			rl(`'[A-Za-z_]\w*`, c.NameAttribute, nil),
			rl(`(fn)(\s+)(\w+)`, c.ByGroups(c.Keyword, c.Text, c.NameFunction), nil),
			rl(kw("use mod crate extern"), c.KeywordNamespace, nil),
			rl(kw("as async await break const continue dyn else enum for if impl in let loop match move mut pub ref return static struct super trait type unsafe where while fn self Self"), c.Keyword, nil),
			rl(kw("true false"), c.KeywordConstant, nil),
			rl(kw("i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result Box"), c.KeywordType, nil),
			rl(kw("Some None Ok Err"), c.NameBuiltin, nil),
			rl(`[A-Za-z_]\w*!`, c.NameFunctionMagic, nil),
			numbers(),
		}, tail())}
	})
}

func cLexer(name string, cpp bool) c.Lexer {
	keywords := "break case const continue default do else enum extern for goto if inline register restrict return sizeof static struct switch typedef union volatile while"
	types := "auto char double float int long short signed unsigned void bool size_t ssize_t ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uintptr_t FILE"
	consts := "NULL true false"
	if cpp {
		keywords += " class namespace template typename public private protected virtual override final new delete this throw try catch using operator friend constexpr consteval decltype noexcept static_cast dynamic_cast reinterpret_cast const_cast explicit mutable co_await co_return co_yield concept requires"
		types += " std string vector map wchar_t char8_t char16_t char32_t"
		consts += " nullptr"
	}
	return newLexer(name, func() c.Rules {
		return c.Rules{"root": rules(cComments(), []c.Rule{
			rl(`^(\s*)(#\s*include)(\s*)(<[^>\n]*>|"[^"\n]*")`, c.ByGroups(c.Text, c.CommentPreproc, c.Text, c.CommentPreprocFile), nil),
			rl(`^\s*#\s*\w+(?:\\\n|[^\n])*`, c.CommentPreproc, nil),
			// A raw string's delimiter is at most 16 characters and an
			// unclosed one runs to the end; a character constant is short:
			// a rule that scanned the whole line and failed at every
			// quote would take time quadratic in the line's length.
			rl(`(?:u8|[uUL])?R"([^()\\\s]{0,16})\([\s\S]*?(?:\)\1"|\z)`, c.LiteralString, nil),
			rl(`(?:u8|[uUL])?"(?:\\[\s\S]|[^"\\\n])*"?`, c.LiteralString, nil),
			rl(`(?:u8|[uUL])?'(?:\\[\s\S]|[^'\\\n]){0,10}'`, c.LiteralStringChar, nil),
			rl(kw(keywords), c.Keyword, nil),
			rl(kw(types), c.KeywordType, nil),
			rl(kw(consts), c.KeywordConstant, nil),
			numbers(),
		}, tail())}
	})
}

func javaLexer() c.Lexer {
	return newLexer("Java", func() c.Rules {
		return c.Rules{"root": rules(cComments(), []c.Rule{
			rl(`"""[\s\S]*?(?:"""|\z)`, c.LiteralString, nil),
			rl(`@\w+`, c.NameDecorator, nil),
			rl(`(class|interface|enum|record)(\s+)(\w+)`, c.ByGroups(c.KeywordDeclaration, c.Text, c.NameClass), nil),
			rl(kw("package import"), c.KeywordNamespace, nil),
			rl(kw("abstract assert break case catch class continue default do else enum extends final finally for if implements instanceof interface native new private protected public return static strictfp super switch synchronized this throw throws transient try volatile while var record sealed permits yield"), c.Keyword, nil),
			rl(kw("boolean byte char double float int long short void String Object Integer Long Double Boolean List Map Set"), c.KeywordType, nil),
			rl(kw("true false null"), c.KeywordConstant, nil),
		}, cStrings(), []c.Rule{numbers()}, tail())}
	})
}

func sqlLexer() c.Lexer {
	return c.MustNewLexer(&c.Config{Name: "SQL", EnsureNL: true, CaseInsensitive: true}, func() c.Rules {
		return c.Rules{"root": {
			rl(`--[^\n]*`, c.CommentSingle, nil),
			rl(`/\*[\s\S]*?(?:\*/|\z)`, c.CommentMultiline, nil),
			rl(`'(?:''|[^'])*'?`, c.LiteralStringSingle, nil),
			rl(`"(?:""|[^"])*"?|`+"`[^`]*`?", c.NameVariable, nil),
			rl(kw("add all alter and any as asc begin between by cascade case check column commit constraint create cross database default delete desc distinct drop else end exists explain foreign from full grant group having if in index inner insert intersect into is join key left like limit not null offset on or order outer over partition primary references replace returning revoke right rollback schema select set table then to transaction trigger truncate union unique update using values view when where with"), c.Keyword, nil),
			rl(kw("bigint binary bit blob boolean bool char date datetime decimal double float int integer interval json jsonb money numeric real serial bigserial smallint text time timestamp timestamptz uuid varchar"), c.KeywordType, nil),
			rl(kw("true false"), c.KeywordConstant, nil),
			rl(`([a-z_]\w*)(\s*)(\()`, c.ByGroups(c.NameFunction, c.Text, c.Punctuation), nil),
			rl(`[a-z_][\w$]*`, c.Name, nil),
			rl(`@@?\w+|[$:?]\w*`, c.NameVariable, nil),
			rl(`\d+(?:\.\d+)?(?:e[+-]?\d+)?`, c.LiteralNumber, nil),
			rl(`[-+*/%<>=!|&~^]+`, c.Operator, nil),
			rl(`[()\[\],.;]`, c.Punctuation, nil),
			rl(`\s+`, c.Text, nil),
			rl(`.`, c.Text, nil),
		}}
	})
}

// markupLexer reads HTML and XML: tags, attributes, comments, entities.
func markupLexer() c.Lexer {
	return newLexer("HTML", func() c.Rules {
		return c.Rules{
			"root": {
				rl(`<!--[\s\S]*?(?:-->|\z)`, c.CommentMultiline, nil),
				rl(`<!\[CDATA\[[\s\S]*?(?:\]\]>|\z)`, c.CommentPreproc, nil),
				rl(`<[!?][^>]*>?`, c.CommentPreproc, nil),
				rl(`(<)(/?)([\w:.-]+)`, c.ByGroups(c.Punctuation, c.Punctuation, c.NameTag), c.Push("tag")),
				rl(`&(?:#\d+|#x[0-9a-fA-F]+|\w+);`, c.NameEntity, nil),
				rl(`[^<&]+`, c.Text, nil),
				rl(`.`, c.Text, nil),
			},
			"tag": {
				rl(`\s+`, c.Text, nil),
				rl(`([\w:.@-]+)(\s*)(=)(\s*)`, c.ByGroups(c.NameAttribute, c.Text, c.Operator, c.Text), c.Push("value")),
				rl(`[\w:.@-]+`, c.NameAttribute, nil),
				rl(`/?>`, c.Punctuation, c.Pop(1)),
				rl(`.`, c.Text, nil),
			},
			"value": {
				rl(`"[^"]*"?|'[^']*'?|[^\s>]+`, c.LiteralString, c.Pop(1)),
				c.Default(c.Pop(1)),
			},
		}
	})
}

func cssLexer() c.Lexer {
	return newLexer("CSS", func() c.Rules {
		return c.Rules{
			"root": {
				rl(`/\*[\s\S]*?(?:\*/|\z)`, c.CommentMultiline, nil),
				rl(`//[^\n]*`, c.CommentSingle, nil),
				rl(`@[\w-]+`, c.Keyword, nil),
				rl(`\{`, c.Punctuation, c.Push("block")),
				rl(`\.[\w-]+`, c.NameClass, nil),
				rl(`#[\w-]+`, c.NameNamespace, nil),
				rl(`::?[\w-]+`, c.NameDecorator, nil),
				rl(`\[[^\]\n]*\]?`, c.NameAttribute, nil),
				rl(`[\w-]+`, c.NameTag, nil),
				rl(`"[^"\n]*"?|'[^'\n]*'?`, c.LiteralString, nil),
				rl(`[>+~*,:;()]`, c.Punctuation, nil),
				rl(`\s+`, c.Text, nil),
				rl(`.`, c.Text, nil),
			},
			"block": {
				rl(`/\*[\s\S]*?(?:\*/|\z)`, c.CommentMultiline, nil),
				rl(`\}`, c.Punctuation, c.Pop(1)),
				rl(`\{`, c.Punctuation, c.Push("block")),
				rl(`(--[\w-]+|[a-zA-Z-]+)(\s*)(:)(?!:)`, c.ByGroups(c.NameAttribute, c.Text, c.Punctuation), nil),
				rl(`&|\.[\w-]+|::?[\w-]+`, c.NameDecorator, nil),
				rl(`#[0-9a-fA-F]{3,8}\b`, c.LiteralNumberHex, nil),
				rl(`[-+]?(?:\d+\.?\d*|\.\d+)(?:%|[a-zA-Z]+)?`, c.LiteralNumber, nil),
				rl(`"[^"\n]*"?|'[^'\n]*'?`, c.LiteralString, nil),
				rl(`!important`, c.KeywordReserved, nil),
				rl(`([\w-]+)(\()`, c.ByGroups(c.NameFunction, c.Punctuation), nil),
				rl(`@[\w-]+`, c.Keyword, nil),
				rl(`[\w-]+`, c.Name, nil),
				rl(`[;,()/*+>~=]`, c.Punctuation, nil),
				rl(`\s+`, c.Text, nil),
				rl(`.`, c.Text, nil),
			},
		}
	})
}

func dockerLexer() c.Lexer {
	return c.MustNewLexer(&c.Config{Name: "Dockerfile", EnsureNL: true, CaseInsensitive: true}, func() c.Rules {
		return c.Rules{"root": append([]c.Rule{
			rl(`^(\s*)(from|run|cmd|label|expose|env|add|copy|entrypoint|volume|user|workdir|arg|onbuild|stopsignal|healthcheck|shell|maintainer)\b`, c.ByGroups(c.Text, c.Keyword), nil),
			rl(`(?<=\s)as(?=\s)`, c.Keyword, nil),
			rl(`\n`, c.Text, nil),
		}, shellRules()...)}
	})
}

func makeLexer() c.Lexer {
	return newLexer("Makefile", func() c.Rules {
		return c.Rules{"root": append([]c.Rule{
			rl(`^(?:include|-include|sinclude|ifeq|ifneq|ifdef|ifndef|else|endif|define|endef|export|unexport|override|vpath)\b`, c.Keyword, nil),
			rl(`^(\s*)([\w.\-/$(){}]+)(\s*)([:+?!]?=)`, c.ByGroups(c.Text, c.NameVariable, c.Text, c.Operator), nil),
			rl(`^([^\s:=#][^:=#\n]*)(::?)(?!=)`, c.ByGroups(c.NameFunction, c.Operator), nil),
			rl(`\$\([^)\n]*\)?|\$\{[^}\n]*\}?|\$[@<^+?*%]`, c.NameVariable, nil),
			rl(`\n`, c.Text, nil),
		}, shellRules()...)}
	})
}

func rubyLexer() c.Lexer {
	return newLexer("Ruby", func() c.Rules {
		return c.Rules{"root": {
			rl(`#[^\n]*`, c.CommentSingle, nil),
			rl(`^=begin[\s\S]*?(?:^=end|\z)`, c.CommentMultiline, nil),
			rl(`"(?:\\[\s\S]|[^"\\])*"?`, c.LiteralStringDouble, nil),
			rl(`'(?:\\[\s\S]|[^'\\])*'?`, c.LiteralStringSingle, nil),
			rl(`:[A-Za-z_]\w*[?!]?|\b[A-Za-z_]\w*:(?=\s)`, c.LiteralStringSymbol, nil),
			rl(`@@?[A-Za-z_]\w*|\$[A-Za-z_]\w*`, c.NameVariableInstance, nil),
			rl(`(def)(\s+)((?:self\.)?[A-Za-z_]\w*[?!=]?)`, c.ByGroups(c.Keyword, c.Text, c.NameFunction), nil),
			rl(`(class|module)(\s+)([A-Z][\w:]*)`, c.ByGroups(c.Keyword, c.Text, c.NameClass), nil),
			rl(kw("require require_relative include extend"), c.KeywordNamespace, nil),
			rl(kw("alias and begin break case class def defined do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield lambda proc raise attr_accessor attr_reader attr_writer private protected public"), c.Keyword, nil),
			rl(kw("true false nil"), c.KeywordConstant, nil),
			rl(kw("puts print p pp require format sprintf"), c.NameBuiltin, nil),
			rl(`[A-Z]\w*`, c.NameConstant, nil),
			numbers(),
			rl(`([a-z_]\w*[?!]?)(\s*)(\()`, c.ByGroups(c.NameFunction, c.Text, c.Punctuation), nil),
			rl(`[a-z_]\w*[?!]?`, c.Name, nil),
			rl(`[-+*/%&|^!=<>~?:]+`, c.Operator, nil),
			rl(`[()\[\]{},.;]`, c.Punctuation, nil),
			rl(`\s+`, c.Text, nil),
			rl(`.`, c.Text, nil),
		}}
	})
}
