package agent

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tick-agent/tick/provider"
)

// Images reach the model in a user message: a tool message carries text
// only, so the images read_file reads during a round are sent in one user
// message after the round's tool results, and the images a prompt's @
// mentions attach go with the prompt. The provider sends them as image
// parts, or a note in place of each to a model that takes none. A session
// saves them as they were sent (package imagefile caps each at 1 MiB), so
// a resumed conversation sends the same request again.

// imageTag opens the text of the user message that carries a round's
// images; replay leaves that message out like the loop's reminders.
const imageTag = "<reminder>"

// imageBatch collects the images of one round's tool calls.
type imageBatch struct {
	mu   sync.Mutex
	imgs []provider.Image
}

func (b *imageBatch) add(img provider.Image) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.imgs = append(b.imgs, img)
}

func (b *imageBatch) take() []provider.Image {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.imgs
	b.imgs = nil
	return out
}

// attachImages adds the round's images to the conversation after its tool
// results and tells the user.
func (l *loop) attachImages(imgs []provider.Image) {
	if len(imgs) == 0 {
		return
	}
	names := imageNames(imgs)
	l.add(provider.Message{Role: provider.RoleUser, Images: imgs,
		Content: fmt.Sprintf("%sThe images read_file attached: %s.</reminder>", imageTag, names)})
	l.emit(Notice{Text: "attached the image " + names})
}

// imageNames lists the images' names for a message.
func imageNames(imgs []provider.Image) string {
	names := make([]string, len(imgs))
	for i, img := range imgs {
		names[i] = img.Name
	}
	return strings.Join(names, ", ")
}
