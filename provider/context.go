package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxNativeBody caps the answer of a server's native endpoint.
const maxNativeBody = 4 << 20

// ServedContext is what a server says about the context it serves a model
// with.
type ServedContext struct {
	// Tokens is the served context size; 0 when the server did not say.
	Tokens int
	// Source names the endpoint and field, e.g. "vLLM max_model_len".
	Source string
	// Ollama is set when the server is Ollama.
	Ollama bool
	// OllamaDefault is set when Ollama will serve the model with its
	// default context: no num_ctx in its Modelfile and not loaded yet.
	// That default is small (a few thousand tokens unless the server's
	// OLLAMA_CONTEXT_LENGTH raises it) and longer prompts are cut silently.
	OllamaDefault bool
	// Ceiling is the most the model supports, when the server said
	// (Ollama's model_info context_length).
	Ceiling int
}

// DiscoverContext asks the server at baseURL how large a context it serves
// model with, through the native endpoints of the usual servers at once:
// vLLM's max_model_len in /v1/models, llama.cpp's /props n_ctx, LM
// Studio's /api/v0/models max_context_length, Ollama's /api/ps and
// /api/show. It returns what it learnt before ctx ends; a server that
// answers none of them gives the zero ServedContext.
func DiscoverContext(ctx context.Context, baseURL, apiKey, model string) ServedContext {
	hc := &http.Client{}
	root := strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
	probes := []func() ServedContext{
		func() ServedContext { return vllmContext(ctx, hc, baseURL, apiKey, model) },
		func() ServedContext { return llamacppContext(ctx, hc, root, apiKey) },
		func() ServedContext { return lmstudioContext(ctx, hc, root, apiKey, model) },
		func() ServedContext { return ollamaContext(ctx, hc, root, model) },
	}
	results := make([]ServedContext, len(probes))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = p() }()
	}
	wg.Wait()
	for _, r := range results {
		if r.Tokens > 0 || r.Ollama {
			return r
		}
	}
	return ServedContext{}
}

// getJSON sends method to endpoint (with body when not nil) and decodes a
// 200 answer into out.
func getJSON(ctx context.Context, hc *http.Client, method, endpoint, apiKey string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint, rd)
	if err != nil {
		return err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", method, endpoint, resp.Status)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, maxNativeBody)).Decode(out)
}

// vllmContext reads max_model_len from vLLM's model list.
func vllmContext(ctx context.Context, hc *http.Client, base, apiKey, model string) ServedContext {
	var list struct {
		Data []struct {
			ID          string `json:"id"`
			MaxModelLen int    `json:"max_model_len"`
		} `json:"data"`
	}
	if getJSON(ctx, hc, http.MethodGet, strings.TrimRight(base, "/")+"/models", apiKey, nil, &list) != nil {
		return ServedContext{}
	}
	for _, m := range list.Data {
		if m.ID == model && m.MaxModelLen > 0 {
			return ServedContext{Tokens: m.MaxModelLen, Source: "vLLM max_model_len"}
		}
	}
	return ServedContext{}
}

// llamacppContext reads n_ctx from llama.cpp's /props.
func llamacppContext(ctx context.Context, hc *http.Client, root, apiKey string) ServedContext {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if getJSON(ctx, hc, http.MethodGet, root+"/props", apiKey, nil, &props) != nil {
		return ServedContext{}
	}
	if n := max(props.Settings.NCtx, props.NCtx); n > 0 {
		return ServedContext{Tokens: n, Source: "llama.cpp /props n_ctx"}
	}
	return ServedContext{}
}

// lmstudioContext reads LM Studio's model entry: the loaded context when
// the model is loaded, else its max_context_length.
func lmstudioContext(ctx context.Context, hc *http.Client, root, apiKey, model string) ServedContext {
	var m struct {
		MaxContextLength    int `json:"max_context_length"`
		LoadedContextLength int `json:"loaded_context_length"`
	}
	if getJSON(ctx, hc, http.MethodGet, root+"/api/v0/models/"+url.PathEscape(model), apiKey, nil, &m) != nil {
		return ServedContext{}
	}
	switch {
	case m.LoadedContextLength > 0:
		return ServedContext{Tokens: m.LoadedContextLength, Source: "LM Studio loaded_context_length"}
	case m.MaxContextLength > 0:
		return ServedContext{Tokens: m.MaxContextLength, Source: "LM Studio max_context_length"}
	}
	return ServedContext{}
}

// ollamaContext asks Ollama: the loaded model's context_length in /api/ps,
// else num_ctx from the Modelfile parameters in /api/show; neither means
// the server's default applies.
func ollamaContext(ctx context.Context, hc *http.Client, root, model string) ServedContext {
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if getJSON(ctx, hc, http.MethodPost, root+"/api/show", "", map[string]string{"model": model}, &show) != nil {
		return ServedContext{}
	}
	sc := ServedContext{Ollama: true}
	for k, v := range show.ModelInfo {
		if f, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") {
			sc.Ceiling = int(f)
		}
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if getJSON(ctx, hc, http.MethodGet, root+"/api/ps", "", nil, &ps) == nil {
		for _, m := range ps.Models {
			if (m.Name == model || m.Model == model) && m.ContextLength > 0 {
				sc.Tokens, sc.Source = m.ContextLength, "Ollama /api/ps context_length"
				return sc
			}
		}
	}
	if n := numCtx(show.Parameters); n > 0 {
		sc.Tokens, sc.Source = n, "Ollama num_ctx"
		return sc
	}
	sc.OllamaDefault = true
	return sc
}

// numCtx finds "num_ctx N" among Ollama's Modelfile parameters.
func numCtx(params string) int {
	for _, line := range strings.Split(params, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// DiscoverTimeout bounds DiscoverContext at start-up.
const DiscoverTimeout = 1500 * time.Millisecond
