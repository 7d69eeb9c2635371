package provider

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// reasoningKey is how the reasoning field appears in a chunk or answer:
// a cheap test before a second decode of the line.
var reasoningKey = []byte(`"reasoning"`)

// reasoningFields is the part of a chunk or a whole answer that go-openai
// does not decode: the reasoning that Ollama, OpenRouter and newer vLLM
// send as "reasoning" instead of "reasoning_content".
type reasoningFields struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Reasoning json.RawMessage `json:"reasoning"`
		} `json:"delta"`
		Message struct {
			Reasoning json.RawMessage `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
}

// reasoningOf returns the reasoning text of choice 0 of raw, delta or
// message: "" when there is none or it is not a string (OpenRouter may
// send objects beside it, which are not text to show).
func reasoningOf(raw []byte) string {
	if !bytes.Contains(raw, reasoningKey) {
		return ""
	}
	var rf reasoningFields
	if json.Unmarshal(raw, &rf) != nil {
		return ""
	}
	for _, ch := range rf.Choices {
		if ch.Index != 0 {
			continue
		}
		if s := firstText(ch.Delta.Reasoning, ch.Message.Reasoning); s != "" {
			return s
		}
	}
	return ""
}

// firstText returns the first of rs that is a JSON string other than "",
// decoded; "" when there is none.
func firstText(rs ...json.RawMessage) string {
	for _, r := range rs {
		var s string
		if len(r) > 0 && json.Unmarshal(r, &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// streamChunk is a data line of the stream as go-openai decodes it, with
// the "reasoning" field beside it, so that one decode reads both.
type streamChunk struct {
	openai.ChatCompletionStreamResponse
	Choices []struct {
		openai.ChatCompletionStreamChoice
		Delta struct {
			openai.ChatCompletionStreamChoiceDelta
			Reasoning json.RawMessage `json:"reasoning"`
		} `json:"delta"`
		Message json.RawMessage `json:"message"`
	} `json:"choices"`
}

// decodeChunk decodes one data line of the stream. The "reasoning" field
// goes into the chunk's reasoning_content when the server sent none there.
// A server that sends both (vLLM while it moves from one name to the
// other) sends the same text twice; it is taken once.
func decodeChunk(raw []byte) (openai.ChatCompletionStreamResponse, error) {
	var sc streamChunk
	if err := json.Unmarshal(raw, &sc); err != nil {
		var plain openai.ChatCompletionStreamResponse
		if perr := json.Unmarshal(raw, &plain); perr != nil {
			err = perr // the error names go-openai's type, as it did before
		}
		return openai.ChatCompletionStreamResponse{}, err
	}
	chunk := sc.ChatCompletionStreamResponse
	chunk.Choices = nil
	if sc.Choices != nil {
		chunk.Choices = make([]openai.ChatCompletionStreamChoice, len(sc.Choices))
	}
	reasoning, looked := "", false
	for i, ch := range sc.Choices {
		ch.ChatCompletionStreamChoice.Delta = ch.Delta.ChatCompletionStreamChoiceDelta
		chunk.Choices[i] = ch.ChatCompletionStreamChoice
		if ch.Index != 0 || ch.Delta.ReasoningContent != "" {
			continue
		}
		if !looked {
			reasoning, looked = sc.reasoning(), true
		}
		chunk.Choices[i].Delta.ReasoningContent = reasoning
	}
	return chunk, nil
}

// reasoning returns the reasoning text of choice 0, delta or message, as
// reasoningOf does.
func (sc *streamChunk) reasoning() string {
	for _, ch := range sc.Choices {
		if ch.Index != 0 {
			continue
		}
		var m struct {
			Reasoning json.RawMessage `json:"reasoning"`
		}
		if len(ch.Message) > 0 {
			_ = json.Unmarshal(ch.Message, &m)
		}
		if s := firstText(ch.Delta.Reasoning, m.Reasoning); s != "" {
			return s
		}
	}
	return ""
}

// The tags that enclose thoughts written into the answer's text.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
	// Gemma 4's thought channel: <|channel>thought\n…<channel|>
	// (vLLM gemma4_reasoning_parser.py).
	gemmaThink      = "<|channel>"
	gemmaThinkClose = "<channel|>"
	gemmaThinkLabel = "thought\n"
)

// What a thinkSplit does with the text it is given.
const (
	thinkStart   = iota // nothing but white space yet: an opening tag may come
	thinkIn             // inside <think>: reasoning until </think>
	thinkOut            // the answer; a lone </think> still moves it all to reasoning
	thinkTrim           // right after </think>: white space before the answer is dropped
	thinkDone           // the answer; tags are text from here on
	thinkHarmony        // the answer is in Harmony: harmonySplit reads it
)

// thinkSplit separates thoughts written into the content from the answer,
// as servers without a reasoning parser send them: "<think>…</think>"
// at the start, or "…</think>" alone when the chat template opened the tag
// in the prompt. A tag may be cut across chunks: the bytes that may be the
// start of a tag are held until the next chunk decides.
type thinkSplit struct {
	mode    int
	held    string
	tail    tagTail       // the end of the answer so far, to find an opening tag cut in two
	close   string        // the tag that ends the thoughts ("" for </think>)
	label   bool          // Gemma's "thought\n" may still start the thoughts
	harmony *harmonySplit // the answer is written in gpt-oss's Harmony
	// guess: the chat template is known to open <think> (the caller
	// learnt it from an earlier answer): text at the start is taken as
	// thoughts until </think>, and given back as the answer (unguessed)
	// if the stream ends without it.
	guess     bool
	guessing  bool            // streaming text as thoughts on that guess
	guessed   strings.Builder // what guessing streamed as thoughts
	unguessed string          // what pending gave back as the answer
	lone      bool            // the thoughts ended in </think> with no <think> written
}

// feed splits s and returns the answer text and the reasoning it carried,
// and moved when a lone closing tag showed that the answer so far was
// reasoning (the caller moves it).
func (t *thinkSplit) feed(s string) (answer, thought string, moved bool) {
	s, t.held = t.held+s, ""
	for {
		switch t.mode {
		case thinkStart:
			if !t.start(&s) {
				return answer, thought, moved
			}
		case thinkIn:
			if t.label {
				if len(s) < len(gemmaThinkLabel) && strings.HasPrefix(gemmaThinkLabel, s) {
					t.held = s
					return answer, thought, moved
				}
				s, t.label = strings.TrimPrefix(s, gemmaThinkLabel), false
			}
			var done bool
			if s, thought, done = t.inThoughts(s, thought); done {
				return answer, thought, moved
			}
		case thinkHarmony:
			a, th := t.harmony.feed(s)
			return answer + a, thought + th, moved
		case thinkOut:
			if t.tail.contains(s, thinkOpen) {
				t.mode = thinkDone // an answer that writes about tags
				continue
			}
			i := strings.Index(s, thinkClose)
			if i < 0 {
				k := len(s) - partialTag(s, thinkClose)
				t.held = s[k:]
				answer += s[:k]
				t.tail.push(s[:k])
				return answer, thought, moved
			}
			if before, ok := t.tail.byteBefore(s, i); ok && strings.IndexByte("`'\"", before) >= 0 {
				t.mode = thinkDone // the tag quoted in prose, not a tag
				continue
			}
			moved, t.lone = true, true
			thought, answer = thought+answer, ""
			thought += s[:i]
			t.mode, s = thinkTrim, s[i+len(thinkClose):]
		case thinkTrim:
			s = strings.TrimLeft(s, " \t\r\n")
			if s == "" {
				return answer, thought, moved
			}
			t.mode = thinkDone
		default:
			return answer + s, thought, moved
		}
	}
}

// pending returns what feed holds back, as answer or reasoning text: the
// end of a stream decides that it is no tag.
func (t *thinkSplit) pending() (answer, thought string) {
	switch t.mode {
	case thinkHarmony:
		return t.harmony.pending()
	case thinkIn:
		if t.guessing { // no </think> came: it was the answer after all
			t.guessing, t.unguessed = false, t.guessed.String()
			return t.unguessed + t.held, ""
		}
		return "", t.held
	case thinkTrim:
		return "", ""
	}
	return t.held, ""
}

// start decides, at the start of the answer, whether thoughts or
// Harmony open it; it moves *s past an opening tag, and returns false
// when s holds nothing but what may still become one (held).
func (t *thinkSplit) start(s *string) bool {
	rest := strings.TrimLeft(*s, " \t\r\n")
	harmony, maybeHarmony := harmonyOpens(rest)
	switch {
	case rest == "" || maybeHarmony || isProperStart(rest, thinkOpen) || isProperStart(rest, gemmaThink):
		t.held = *s
		return false
	case harmony:
		t.mode, t.harmony, *s = thinkHarmony, &harmonySplit{}, rest
	case strings.HasPrefix(rest, thinkOpen):
		t.mode, *s = thinkIn, rest[len(thinkOpen):]
	case strings.HasPrefix(rest, gemmaThink):
		t.mode, t.close, t.label, *s = thinkIn, gemmaThinkClose, true, rest[len(gemmaThink):]
	case t.guess:
		t.mode, t.guessing = thinkIn, true
	default:
		t.mode = thinkOut
	}
	return true
}

// inThoughts reads s inside thoughts, up to the closing tag: it returns
// what follows the tag, the thoughts so far, and done true when the tag
// has not come yet (the end of s that may start it is held).
func (t *thinkSplit) inThoughts(s, thought string) (rest, thoughts string, done bool) {
	closeTag := cmp.Or(t.close, thinkClose)
	i := strings.Index(s, closeTag)
	if i < 0 {
		k := len(s) - partialTag(s, closeTag)
		t.held = s[k:]
		if t.guessing {
			t.guessed.WriteString(s[:k])
		}
		return "", thought + s[:k], true
	}
	if t.guessing {
		t.guessing, t.lone = false, true
	}
	t.mode = thinkTrim
	return s[i+len(closeTag):], thought + s[:i], false
}

// isProperStart reports whether s is a proper start of tag.
func isProperStart(s, tag string) bool { return len(s) < len(tag) && strings.HasPrefix(tag, s) }

// partialTag returns the length of the longest end of s that is a proper
// start of tag.
func partialTag(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

// tagTail keeps the last bytes of a text, fewer than an opening tag's, in
// place: following a streamed answer costs no allocation per piece.
type tagTail struct {
	b [len(thinkOpen) - 1]byte
	n int
}

// push adds s to the end of the text.
func (t *tagTail) push(s string) {
	if len(s) >= len(t.b) {
		t.n = copy(t.b[:], s[len(s)-len(t.b):])
		return
	}
	keep := min(t.n, len(t.b)-len(s))
	copy(t.b[:], t.b[t.n-keep:t.n])
	t.n = keep + copy(t.b[keep:], s)
}

// contains reports whether tag (no longer than an opening tag) occurs in
// the text followed by s.
func (t *tagTail) contains(s, tag string) bool {
	if strings.Contains(s, tag) {
		return true
	}
	var joint [2 * len(t.b)]byte
	n := copy(joint[:], t.b[:t.n])
	n += copy(joint[n:], s)
	return strings.Contains(string(joint[:n]), tag)
}

// byteBefore returns the byte before s[i] in the text followed by s, and
// false when there is none.
func (t *tagTail) byteBefore(s string, i int) (byte, bool) {
	switch {
	case i > 0:
		return s[i-1], true
	case t.n > 0:
		return t.b[t.n-1], true
	}
	return 0, false
}
