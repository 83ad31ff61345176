package tools

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads their sizes
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"strings"
)

// Image is an image the user attached (a pasted or @-mentioned image file)
// or a tool returned.
type Image struct {
	// Name is where it came from ("shot.png"), for people.
	Name string
	// MIME is its type: image/png, image/jpeg, image/gif or image/webp.
	MIME string
	Data []byte
	// Width and Height are its size in pixels (0 when unknown).
	Width, Height int
}

// String is how the image is shown in the chat: "[image 32×32 PNG]".
func (im Image) String() string {
	kind := strings.ToUpper(strings.TrimPrefix(im.MIME, "image/"))
	if kind == "JPEG" {
		kind = "JPG"
	}
	if im.Width > 0 && im.Height > 0 {
		return fmt.Sprintf("[image %d×%d %s]", im.Width, im.Height, kind)
	}
	return fmt.Sprintf("[image %s, %s]", kind, ByteSize(len(im.Data)))
}

// Images: pictures a tool returned (MCP tools do). The agent passes them to
// a model that takes images after the tool's result; the result itself
// names them.
type Images struct {
	Images []Image
}

// ByteSize says how much n bytes is: "812 B", "1.5 KiB", "2.0 MiB".
func ByteSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// MaxImageBytes is the largest image fawn sends (Anthropic's limit is 5 MB).
const MaxImageBytes = 5 << 20

// ImageOf reads data as an image when it is one a model takes (PNG, JPEG,
// GIF or WebP); ok is false for anything else.
func ImageOf(name string, data []byte) (Image, bool) {
	mime := http.DetectContentType(data)
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return Image{}, false
	}
	im := Image{Name: name, MIME: mime, Data: data}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		im.Width, im.Height = cfg.Width, cfg.Height
	}
	return im, true
}
