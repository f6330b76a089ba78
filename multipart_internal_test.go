package guildkit

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/textproto"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMultipartBodyAsStandardLibrary: the body guildkit streams is, byte for
// byte, what mime/multipart.Writer writes for the same parts and boundary.
func TestMultipartBodyAsStandardLibrary(t *testing.T) {
	t.Parallel()
	for name, parts := range map[string][]formPart{
		"none": nil,
		"a payload larger than the pooled buffer": {
			{field: "payload_json", contentType: "application/json", data: bytes.Repeat([]byte("x"), 20<<10)},
			{field: "files[0]", filename: "a.txt", r: strings.NewReader("a")},
		},
		"payload and files": {
			{field: "payload_json", contentType: "application/json", data: []byte(`{"content":"hi"}`)},
			{field: "files[0]", filename: `log "2".txt`, contentType: "text/plain", r: strings.NewReader("line\r\nline")},
			{field: "files[1]", filename: "a\nb.bin", r: bytes.NewReader([]byte{0, 1, 2})},
		},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := newMultipartBody(nil, parts)
			require.NoError(t, err)
			r, err := m.reader()
			require.NoError(t, err)
			got, err := io.ReadAll(r)
			require.NoError(t, err)
			// Written by its WriteTo (as a chunked body is), the same bytes.
			r2, err := m.reader()
			require.NoError(t, err)
			var written bytes.Buffer
			n, err := r2.(io.WriterTo).WriteTo(&written)
			require.NoError(t, err)
			assert.Equal(t, string(got), written.String())
			assert.Equal(t, int64(len(got)), n)

			boundary := strings.TrimPrefix(m.contentType[0], "multipart/form-data; boundary=")
			require.Len(t, boundary, 60)
			var want bytes.Buffer
			w := multipart.NewWriter(&want)
			require.NoError(t, w.SetBoundary(boundary))
			assert.Equal(t, w.FormDataContentType(), m.contentType[0])
			for _, p := range parts {
				h := textproto.MIMEHeader{}
				disp := `form-data; name="` + quoteEscaper.Replace(p.field) + `"`
				if p.filename != "" {
					disp += `; filename="` + quoteEscaper.Replace(p.filename) + `"`
				}
				h.Set("Content-Disposition", disp)
				if p.contentType != "" {
					h.Set("Content-Type", p.contentType)
				}
				pw, err := w.CreatePart(h)
				require.NoError(t, err)
				src := p.data
				if p.r != nil {
					_, err := p.r.(io.Seeker).Seek(0, io.SeekStart)
					require.NoError(t, err)
					src, err = io.ReadAll(p.r)
					require.NoError(t, err)
				}
				_, err = pw.Write(src)
				require.NoError(t, err)
			}
			require.NoError(t, w.Close())
			assert.Equal(t, want.String(), string(got))
			assert.Equal(t, int64(want.Len()), m.size, "the Content-Length")
		})
	}
}
