package tools

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// bombWebP is 46 bytes: a 16384×16384 lossless frame of one colour behind
// a 4096×1 canvas; decoding it took 2 GB.
const bombWebP = "524946462600000057454250565038580a00000000000000ff0f000000005650384c080000002fffffff0f888808"

// TestReadFileImageBombInTasks: read_file of the WebP bomb, by several
// calls at once (as subagents would), is refused naming the file, and
// allocates next to nothing.
func TestReadFileImageBombInTasks(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	data, _ := hex.DecodeString(bombWebP)
	if err := os.WriteFile(filepath.Join(ws.Root(), "bomb.png"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	rf := NewReadFile(ws)
	ctx := WithImages(context.Background(), func(provider.Image) { t.Error("attached the bomb") })
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			_, err := rf.Run(ctx, json.RawMessage(`{"path":"bomb.png"}`))
			if err == nil || !strings.Contains(err.Error(), `read image "bomb.png": image bomb.png: `) || !strings.Contains(err.Error(), "16384×16384") {
				t.Errorf("err = %v, want a refusal naming bomb.png and its frame", err)
			}
		})
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("refusing it three times allocated %d MiB", grew>>20)
	}
}
