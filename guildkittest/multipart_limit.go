package guildkittest

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
)

// maxPartHeader bounds the header of one part of a multipart body: a
// Content-Disposition with a long file name and a Content-Type fit many
// times over. The multipart reader would otherwise accept up to 10 MiB of
// header a part and allocate several times that reading it.
const maxPartHeader = 16 << 10

var errPartHeaderTooLarge = errors.New("guildkittest: a multipart part's header is larger than 16 KiB")

// limitPartHeaders wraps r's body, when it is multipart, in a reader that
// fails once a part's header grows past maxPartHeader, so that reading
// any multipart body allocates about its size at most.
func limitPartHeaders(r *http.Request) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return
	}
	r.Body = &partHeaderLimit{rc: r.Body, delim: []byte("\r\n--" + params["boundary"]), match: 2}
}

// partHeaderLimit follows a multipart body as it is read: in a part's
// content it looks for the delimiter ("\r\n--boundary"); after one, it
// counts the header up to the blank line that ends it. A boundary has no
// CR or LF in it, so a partial match can only restart at a CR.
type partHeaderLimit struct {
	rc    io.ReadCloser
	delim []byte
	match int // bytes of delim matched, in content; the body starts as if after a CRLF

	inHeader bool
	header   int  // bytes of the current part's header so far
	blank    int  // bytes of "\r\n\r\n" matched, in a header
	dash     bool // the delimiter was followed by '-'
	done     bool
}

func (p *partHeaderLimit) Read(b []byte) (int, error) {
	n, err := p.rc.Read(b)
	if p.done {
		return n, err
	}
	for i := 0; i < n; i++ {
		c := b[i]
		if p.inHeader {
			p.header++
			switch {
			case p.header == 1:
				p.dash = c == '-'
			case p.header == 2 && p.dash && c == '-':
				p.done = true // the closing delimiter: the rest is epilogue
				return n, err
			}
			switch {
			case c == "\r\n\r\n"[p.blank]:
				p.blank++
			case c == '\r':
				p.blank = 1
			default:
				p.blank = 0
			}
			if p.blank == 4 {
				p.inHeader, p.match = false, 0
				continue
			}
			if p.header > maxPartHeader {
				return i, errPartHeaderTooLarge
			}
			continue
		}
		if p.match == 0 {
			j := bytes.IndexByte(b[i:n], '\r')
			if j < 0 {
				break
			}
			i += j
			c = '\r'
		}
		switch {
		case c == p.delim[p.match]:
			p.match++
		case c == '\r':
			p.match = 1
		default:
			p.match = 0
		}
		if p.match == len(p.delim) {
			p.inHeader, p.header, p.blank, p.match = true, 0, 0, 0
		}
	}
	return n, err
}

func (p *partHeaderLimit) Close() error { return p.rc.Close() }
