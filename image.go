package guildkit

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ImageData is an image as a data URI ("data:image/png;base64,iVBORw0...")
// the form the interface takes for icons, avatars, banners and splashes. Make
// one with [NewImageData] or [ReadImageData].
type ImageData string

// maxImageBytes bounds what ReadImageData reads: the platform's largest image
// upload is 10 MiB.
const maxImageBytes = 10 << 20

// imageTypes are the content types the interface accepts for images.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// NewImageData encodes b as a data URI, detecting its content type from its
// first bytes. It fails when b is not a PNG, JPEG, GIF or WebP image.
func NewImageData(b []byte) (ImageData, error) {
	ct := http.DetectContentType(b)
	ok := false
	for _, t := range imageTypes {
		if ct == t {
			ok = true
			break
		}
	}
	if !ok {
		return "", fmt.Errorf("guildkit: image data: content type %q is not one of png, jpeg, gif or webp", ct)
	}
	var sb strings.Builder
	sb.Grow(len("data:;base64,") + len(ct) + base64.StdEncoding.EncodedLen(len(b)))
	sb.WriteString("data:")
	sb.WriteString(ct)
	sb.WriteString(";base64,")
	enc := base64.NewEncoder(base64.StdEncoding, &sb)
	enc.Write(b)
	enc.Close()
	return ImageData(sb.String()), nil
}

// ReadImageData reads an image of at most 10 MiB from r and encodes it as a
// data URI, as [NewImageData] does.
func ReadImageData(r io.Reader) (ImageData, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxImageBytes+1))
	if err != nil {
		return "", fmt.Errorf("guildkit: image data: %w", err)
	}
	if len(b) > maxImageBytes {
		return "", fmt.Errorf("guildkit: image data: larger than %d bytes", maxImageBytes)
	}
	return NewImageData(b)
}

// ContentType returns the content type named in the data URI, or "" when d is
// not a data URI.
func (d ImageData) ContentType() string {
	s, ok := strings.CutPrefix(string(d), "data:")
	if !ok {
		return ""
	}
	ct, _, ok := strings.Cut(s, ";")
	if !ok {
		return ""
	}
	return ct
}

// String returns a short description ("image/png, 1234 bytes") rather than the
// whole data URI, so that logging params stays readable.
func (d ImageData) String() string {
	_, payload, _ := strings.Cut(string(d), ",")
	n := base64.StdEncoding.DecodedLen(len(payload)) - (len(payload) - len(strings.TrimRight(payload, "=")))
	return fmt.Sprintf("%s, %d bytes", d.ContentType(), max(n, 0))
}

// valid reports whether d is a base64 data URI of an accepted image type.
func (d ImageData) valid() bool {
	ct := d.ContentType()
	for _, t := range imageTypes {
		if ct == t {
			return strings.HasPrefix(string(d), "data:"+ct+";base64,")
		}
	}
	return false
}
