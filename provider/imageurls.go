package provider

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"unsafe"
)

// An image goes to the server as a data: URL, base64 text a third larger
// than the image, in every request while it is in the conversation. So
// that it costs one encoding, not one per request: the client keeps each
// image's URL, already as a JSON string, made the first time the image is
// sent (imageURLs); a request carries a short placeholder in its place
// through go-openai's encoding and rewriteBody, which then handle only
// the conversation's text, and the URLs are put in as the body is sent
// (imageRefs.fill).

// maxURLCache bounds the bytes of URLs a client keeps; past it the cache
// starts again empty (an image is then encoded once more).
const maxURLCache = 64 << 20

// imageKey is an image by its bytes' identity: an Image's Data is never
// changed once made, and copies of a message share it.
type imageKey struct {
	data      *byte
	size      int
	mediaType string
}

// imageURLs is a client's cache of data URLs as JSON strings, and the
// secret its placeholders are made of.
type imageURLs struct {
	mu    sync.Mutex
	nonce string // random, never in a conversation (unlike call ids)
	urls  map[imageKey][]byte
	bytes int
}

// get returns img's data URL as a JSON string, encoding it on first use,
// and the placeholders' secret.
func (c *imageURLs) get(img Image) (url []byte, nonce string) {
	key := imageKey{unsafe.SliceData(img.Data), len(img.Data), img.MediaType}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nonce == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		c.nonce = hex.EncodeToString(b[:])
	}
	if u, ok := c.urls[key]; ok {
		return u, c.nonce
	}
	u, _ := json.Marshal(DataURL(img)) // a string: cannot fail
	if c.urls == nil || c.bytes+len(u) > maxURLCache {
		c.urls, c.bytes = map[imageKey][]byte{}, 0
	}
	c.urls[key] = u
	c.bytes += len(u)
	return u, c.nonce
}

// imageRefs are the images of one request: the placeholder each got in the
// request, and what fill puts in its place. The zero value has none.
type imageRefs struct {
	prefix string   // the placeholders' start: the client's nonce
	urls   [][]byte // JSON strings, by placeholder number
}

// ref returns the placeholder of url, the next image of the request.
func (r *imageRefs) ref(nonce string, url []byte) string {
	r.prefix = "tick-image-" + nonce + "-"
	r.urls = append(r.urls, url)
	return r.prefix + strconv.Itoa(len(r.urls)-1)
}

// urlKey is the key an image part's URL is under. In a JSON text the
// sequence `"url":"` is always structure, never inside a string (there
// every quote is escaped), so the conversation's text cannot make fill
// put an image in.
const urlKey = `"url":`

// fill returns body with every placeholder, as the value of a "url" key,
// replaced by its image's URL; anything else that looks like one (in
// text, an unknown number) is left as it is.
func (r imageRefs) fill(body []byte) []byte {
	if len(r.urls) == 0 {
		return body
	}
	open := []byte(urlKey + `"` + r.prefix)
	size := len(body)
	for _, u := range r.urls {
		size += len(u)
	}
	out := make([]byte, 0, size)
	for {
		i := bytes.Index(body, open)
		if i < 0 {
			break
		}
		n, end := placeholderNumber(body[i+len(open):])
		if n < 0 || n >= len(r.urls) {
			out = append(out, body[:i+len(open)]...)
			body = body[i+len(open):]
			continue
		}
		out = append(out, body[:i+len(urlKey)]...)
		out = append(out, r.urls[n]...)
		body = body[i+len(open)+end:]
	}
	return append(out, body...)
}

// placeholderNumber reads the digits and the closing quote that end a
// placeholder at the start of b: the number and the bytes read, or -1.
func placeholderNumber(b []byte) (int, int) {
	k := 0
	for k < len(b) && k < 9 && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	if k == 0 || k >= len(b) || b[k] != '"' {
		return -1, 0
	}
	n, _ := strconv.Atoi(string(b[:k]))
	return n, k + 1
}
