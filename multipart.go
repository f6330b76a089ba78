package guildkit

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"strings"
)

// File is a file to upload with a request.
type File struct {
	// Name is the file name sent with the part; required. Components refer to
	// the file as "attachment://" + Name.
	Name string
	// ContentType is the part's content type. When empty it is guessed from
	// Name's extension, else application/octet-stream.
	ContentType string
	// Reader is the content. It is streamed, never buffered whole. An
	// io.ReadSeeker (such as *os.File) is read from its current offset and
	// rewound there if the request is retried; a plain io.Reader can be sent
	// only once, so a call carrying one is never retried.
	Reader io.Reader
}

// formPart is one part of a multipart/form-data body: either data held in
// memory (payload_json) or a streamed reader.
type formPart struct {
	field, filename, contentType string
	data                         []byte
	r                            io.Reader
}

// filePart turns a File into the part named field.
func filePart(field string, f File) formPart {
	ct := f.ContentType
	if ct == "" {
		ct = mime.TypeByExtension(filepath.Ext(f.Name))
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	return formPart{field: field, filename: f.Name, contentType: ct, r: f.Reader}
}

// randomBoundary returns a boundary as mime/multipart makes one: 30 random
// bytes in hexadecimal.
func randomBoundary() (string, error) {
	var b [30]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// multipartBody streams a multipart/form-data body without holding the files
// in memory: the boundaries and part headers are prepared once, and each
// attempt reads them interleaved with the sources.
type multipartBody struct {
	contentType string
	segments    [][]byte // segments[i] comes before part i; the last one closes the body
	parts       []formPart
	starts      []int64 // where each seekable source starts; -1 for others
	size        int64   // total length, or -1 when a source's length is unknown
	replayable  bool
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A")

func newMultipartBody(parts []formPart) (*multipartBody, error) {
	boundary, err := randomBoundary()
	if err != nil {
		return nil, err
	}
	m := &multipartBody{
		contentType: "multipart/form-data; boundary=" + boundary,
		segments:    make([][]byte, 0, len(parts)+1),
		parts:       parts,
		starts:      make([]int64, len(parts)),
		replayable:  true,
	}
	// The boundaries and part headers, written as mime/multipart.Writer
	// writes them, into one buffer that the segments share.
	var buf []byte
	ends := make([]int, 0, len(parts)+1)
	for i, p := range parts {
		if i > 0 {
			buf = append(buf, "\r\n"...)
		}
		buf = append(buf, "--"...)
		buf = append(buf, boundary...)
		buf = append(buf, "\r\nContent-Disposition: form-data; name=\""...)
		buf = append(buf, quoteEscaper.Replace(p.field)...)
		buf = append(buf, '"')
		if p.filename != "" {
			buf = append(buf, "; filename=\""...)
			buf = append(buf, quoteEscaper.Replace(p.filename)...)
			buf = append(buf, '"')
		}
		if p.contentType != "" {
			buf = append(buf, "\r\nContent-Type: "...)
			buf = append(buf, p.contentType...)
		}
		buf = append(buf, "\r\n\r\n"...)
		ends = append(ends, len(buf))
	}
	buf = append(buf, "\r\n--"...)
	buf = append(buf, boundary...)
	buf = append(buf, "--\r\n"...)
	ends = append(ends, len(buf))
	start := 0
	for _, end := range ends {
		m.segments = append(m.segments, buf[start:end:end])
		start = end
	}

	for i, p := range parts {
		m.starts[i] = -1
		switch {
		case p.r == nil && p.data != nil:
			m.size = addSize(m.size, int64(len(p.data)))
		case p.r == nil:
			return nil, fmt.Errorf("file %q has no Reader", p.filename)
		default:
			if s, ok := p.r.(io.Seeker); ok {
				start, err1 := s.Seek(0, io.SeekCurrent)
				end, err2 := s.Seek(0, io.SeekEnd)
				_, err3 := s.Seek(start, io.SeekStart)
				if err := errors.Join(err1, err2, err3); err != nil {
					return nil, fmt.Errorf("file %q: %w", p.filename, err)
				}
				m.starts[i] = start
				m.size = addSize(m.size, end-start)
			} else {
				m.replayable = false
				m.size = -1
			}
		}
	}
	if m.size >= 0 {
		for _, s := range m.segments {
			m.size += int64(len(s))
		}
	}
	return m, nil
}

func addSize(total, n int64) int64 {
	if total < 0 {
		return -1
	}
	return total + n
}

// reader returns the body from its start, rewinding seekable sources. It is
// called once per attempt (and once more, unread, when the request is made).
func (m *multipartBody) reader() (io.Reader, error) {
	readers := make([]io.Reader, 0, 2*len(m.parts)+1)
	for i, p := range m.parts {
		readers = append(readers, bytes.NewReader(m.segments[i]))
		switch {
		case p.r == nil:
			readers = append(readers, bytes.NewReader(p.data))
		case m.starts[i] >= 0:
			if _, err := p.r.(io.Seeker).Seek(m.starts[i], io.SeekStart); err != nil {
				return nil, fmt.Errorf("rewinding file %q: %w", p.filename, err)
			}
			readers = append(readers, p.r)
		default:
			readers = append(readers, p.r)
		}
	}
	readers = append(readers, bytes.NewReader(m.segments[len(m.parts)]))
	r := io.MultiReader(readers...)
	if m.size >= 0 {
		return &sizedReader{Reader: r, n: m.size}, nil
	}
	return r, nil
}

// sizedReader lets the transport send a Content-Length.
type sizedReader struct {
	io.Reader
	n int64
}

func (s *sizedReader) Len() int { return int(s.n) }
