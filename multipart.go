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
	"sync"
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
	// io.ReadSeeker (such as *os.File) is sent from its offset at the call,
	// and from there again if the request is retried; an *os.File (any
	// io.ReaderAt but the in-memory readers) is read with ReadAt, each
	// attempt on its own, and its offset is left as it is. A plain
	// io.Reader can be sent only once, so a call carrying one is never
	// retried. A body of up to
	// 16 KiB is sent with a Content-Length, a longer one (or one holding a
	// plain io.Reader) with chunked transfer encoding, which costs no copy
	// buffer per request (see multipartBody).
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

// multipartBody streams a multipart/form-data body without holding the files
// in memory: the boundaries and part headers are prepared once, in one
// buffer, and each attempt writes them interleaved with the sources.
//
// How the body is framed decides what the transport allocates to send it.
// net/http copies a body of known length that is not one of its in-memory
// readers through io.LimitReader into the connection, which on an HTTP/1
// connection allocates a copy buffer of up to 32 KiB per request
// (net/http's transferWriter.writeBody, bufio.Writer.ReadFrom,
// net.genericReadFrom); a body of unknown length is sent chunked, through
// the body's own WriteTo. So a body of at most sizedBodyMax bytes is sent
// with a Content-Length (its copy buffer is at most its size), and a longer
// one chunked, which every HTTP/1.1 server reads (RFC 9112, 7.1) and which
// HTTP/2 does not see. A source of unknown length (a plain io.Reader) makes
// the body chunked whatever its size.
type multipartBody struct {
	contentType [1]string // the Content-Type header's value, shared by attempts
	parts       []multipartPart
	inline      [2]multipartPart // parts' array for a payload and one file, in the same allocation
	closing     []byte           // the last boundary
	size        int64            // total length, or -1 when a source's length is unknown
	replayable  bool
}

// multipartPart is one part and what comes before it.
type multipartPart struct {
	formPart
	head  []byte // the boundary and the part's header
	start int64  // where a seekable source starts; -1 for others
	size  int64  // a seekable source's length from start
}

// sizedBodyMax is the largest multipart body sent with a Content-Length.
const sizedBodyMax = 16 << 10

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A")

const formDataPrefix = "multipart/form-data; boundary="

// newMultipartBody prepares the body of parts, after a payload_json part
// holding payload unless payload is nil.
func newMultipartBody(payload []byte, parts []formPart) (*multipartBody, error) {
	// The boundary is made as mime/multipart makes one: 30 random bytes
	// in hexadecimal.
	var random [30]byte
	if _, err := rand.Read(random[:]); err != nil {
		return nil, err
	}
	var boundary [60]byte
	hex.Encode(boundary[:], random[:])

	m := &multipartBody{
		contentType: [1]string{formDataPrefix + string(boundary[:])},
		replayable:  true,
	}
	need := len(parts)
	if payload != nil {
		need++
	}
	if need <= len(m.inline) {
		m.parts = m.inline[:0:need]
	} else {
		m.parts = make([]multipartPart, 0, need)
	}
	if payload != nil {
		m.parts = append(m.parts, multipartPart{formPart: formPart{field: "payload_json", contentType: "application/json", data: payload}})
	}
	for _, p := range parts {
		m.parts = append(m.parts, multipartPart{formPart: p})
	}
	// The boundaries and part headers, written as mime/multipart.Writer
	// writes them, into one buffer of the right size that they share.
	// (quoteEscaper returns a name that needs no escaping as it is.)
	n := len("\r\n--") + len(boundary) + len("--\r\n")
	for _, p := range m.parts {
		n += len("\r\n--") + len(boundary) + len("\r\nContent-Disposition: form-data; name=\"\"") + len(quoteEscaper.Replace(p.field)) +
			len("; filename=\"\"") + len(quoteEscaper.Replace(p.filename)) + len("\r\nContent-Type: ") + len(p.contentType) + len("\r\n\r\n")
	}
	buf := make([]byte, 0, n)
	for i := range m.parts {
		p := &m.parts[i]
		start := len(buf)
		if i > 0 {
			buf = append(buf, "\r\n"...)
		}
		buf = append(buf, "--"...)
		buf = append(buf, boundary[:]...)
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
		p.head, p.start = buf[start:len(buf):len(buf)], -1
		m.size += int64(len(buf) - start)
	}
	start := len(buf)
	buf = append(buf, "\r\n--"...)
	buf = append(buf, boundary[:]...)
	buf = append(buf, "--\r\n"...)
	m.closing = buf[start:]
	m.size += int64(len(m.closing))

	for i := range m.parts {
		p := &m.parts[i]
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
				p.start, p.size = start, end-start
				m.size = addSize(m.size, end-start)
			} else {
				m.replayable = false
				m.size = -1
			}
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
	for i := range m.parts {
		p := &m.parts[i]
		if _, sectioned := p.readerAt(); p.start >= 0 && !sectioned {
			if _, err := p.r.(io.Seeker).Seek(p.start, io.SeekStart); err != nil {
				return nil, fmt.Errorf("rewinding file %q: %w", p.filename, err)
			}
		}
	}
	if m.size >= 0 && m.size <= sizedBodyMax {
		return &sizedMultipartReader{multipartReader{m: m}}, nil
	}
	return &multipartReader{m: m}, nil
}

// multipartReader reads one attempt's body. Being an io.ReadCloser, it
// reaches the transport as it is, and being an io.WriterTo, it writes
// itself into a chunked body without a copy buffer.
type multipartReader struct {
	m    *multipartBody
	at   int // the piece being read: 2i the head of part i, 2i+1 its content, 2n the closing boundary
	off  int // how much of an in-memory piece has been read
	done bool
	// section reads the current source when it is an io.ReaderAt such as
	// an *os.File (see readerAt): each attempt reads its own section and
	// never moves the source's offset, so an earlier attempt that net/http
	// is still writing cannot mix its reads into this one's.
	section *io.SectionReader
}

// sizedMultipartReader is a multipartReader whose length the transport
// sends as the Content-Length (go-retryablehttp reads it with Len).
type sizedMultipartReader struct{ multipartReader }

func (s *sizedMultipartReader) Len() int { return int(s.m.size) }

// piece returns the current piece: in memory, or a source.
func (r *multipartReader) piece() ([]byte, io.Reader) {
	if r.at == 2*len(r.m.parts) {
		return r.m.closing, nil
	}
	p := &r.m.parts[r.at/2]
	if r.at%2 == 0 {
		return p.head, nil
	}
	if p.r == nil {
		return p.data, nil
	}
	if ra, ok := p.readerAt(); ok {
		if r.section == nil {
			r.section = io.NewSectionReader(ra, p.start, p.size)
		}
		return nil, r.section
	}
	return nil, p.r
}

// readerAt returns the part's source when each attempt reads it on its own
// section: a seekable io.ReaderAt such as an *os.File. The in-memory
// readers (*bytes.Reader, *strings.Reader) are rewound instead, to keep
// their WriteTo, which writes the whole piece in one call.
func (p *multipartPart) readerAt() (io.ReaderAt, bool) {
	switch p.r.(type) {
	case *bytes.Reader, *strings.Reader:
		return nil, false
	}
	ra, ok := p.r.(io.ReaderAt)
	return ra, ok && p.start >= 0
}

func (r *multipartReader) Read(b []byte) (int, error) {
	for !r.done {
		data, src := r.piece()
		var n int
		if src != nil {
			var err error
			n, err = src.Read(b)
			if err != nil && err != io.EOF {
				return n, err
			}
			if err == nil || n > 0 {
				return n, nil // a source's end is learnt by reading it once more
			}
		} else if r.off < len(data) {
			n = copy(b, data[r.off:])
			r.off += n
			return n, nil
		}
		r.next()
	}
	return 0, io.EOF
}

// next moves to the next piece.
func (r *multipartReader) next() {
	r.off, r.section = 0, nil
	if r.at == 2*len(r.m.parts) {
		r.done = true
		return
	}
	r.at++
}

// WriteTo writes the rest of the body to w. Pieces held in memory that
// follow one another (a part's header, payload_json, the next header) go out
// in one Write, which a chunked body sends as one chunk; in-memory sources
// write themselves; others are copied through a pooled buffer.
func (r *multipartReader) WriteTo(w io.Writer) (int64, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	pending := (*buf)[:0]
	var total int64
	for !r.done {
		data, src := r.piece()
		if src == nil {
			rest := data[r.off:]
			if len(pending)+len(rest) <= cap(pending) {
				pending = append(pending, rest...)
				r.next()
				continue
			}
			if err := flushPending(w, &pending, &total); err != nil {
				return total, err
			}
			n, err := w.Write(rest)
			total += int64(n)
			if err != nil {
				return total, err
			}
			r.next()
			continue
		}
		if err := flushPending(w, &pending, &total); err != nil {
			return total, err
		}
		var n int64
		var err error
		switch src := src.(type) {
		case *bytes.Reader, *strings.Reader, *bytes.Buffer:
			n, err = src.(io.WriterTo).WriteTo(w)
		default:
			// Not the source's own WriteTo: an *os.File's falls back to
			// a fresh 32 KiB buffer for a writer that is not a socket.
			n, err = io.CopyBuffer(writerOnly{w}, readerOnly{src}, (*buf)[:cap(*buf)])
		}
		total += n
		if err != nil {
			return total, err
		}
		r.next()
	}
	err := flushPending(w, &pending, &total)
	return total, err
}

// flushPending writes *pending to w, empties it and counts what was
// written in *total.
func flushPending(w io.Writer, pending *[]byte, total *int64) error {
	if len(*pending) == 0 {
		return nil
	}
	n, err := w.Write(*pending)
	*total += int64(n)
	*pending = (*pending)[:0]
	return err
}

// Close does nothing: the sources belong to the caller.
func (r *multipartReader) Close() error { return nil }

// copyBuffers holds the buffers sources without an in-memory WriteTo are
// copied through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// readerOnly and writerOnly hide the methods io.CopyBuffer would use instead
// of the buffer it is given.
type readerOnly struct{ io.Reader }
type writerOnly struct{ io.Writer }
