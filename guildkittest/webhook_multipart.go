package guildkittest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// webhookFile is a files[n] part: its name, type and size. Its content is
// counted and dropped, never held in memory.
type webhookFile struct {
	index       int
	filename    string
	contentType string
	size        int64
	data        []byte // the file's bytes, kept for its URL to serve when within attachmentKeep
}

// messageUpload is what [readMessageUpload] made of an Execute Webhook or
// Edit Webhook Message body, for the handler to answer under the lock (after
// the webhook's token is checked, as the reference platform orders them).
type messageUpload struct {
	body     webhookMessageBody
	raw      []byte // the JSON (the body, or payload_json), for routes whose body has more fields
	files    []webhookFile
	bad      string            // a body that is not what it claims: 400
	problems map[string]string // fields out of bounds: 400 Invalid Form Body
}

// setBodyProblem keeps what decodeJSON found wrong with the JSON body (or
// its payload_json part: notJSON then replaces its message).
func (up *messageUpload) setBodyProblem(p *bodyProblem, notJSON string) {
	switch {
	case p == nil:
	case len(p.problems) > 0:
		up.problems = p.problems
	case notJSON != "":
		up.bad = notJSON
	default:
		up.bad = p.message
	}
}

// readMessageUpload reads an Execute Webhook or Edit Webhook Message body
// before the server's lock: JSON (at most [MaxJSONBody]), or multipart
// (payload_json, at most MaxJSONBody, and at most [MaxMessageFiles]
// files[n] parts, streamed: counted and dropped), within [MaxUploadBody] in
// all. A body over a limit is answered 413 at once; other problems wait in
// c.upload for the handler.
func readMessageUpload(c *call) bool {
	up := &messageUpload{}
	c.upload = up
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	var err error
	if mt == "multipart/form-data" {
		err = readWebhookMultipart(c.r, up)
	} else {
		var b []byte
		if b, err = readJSONPart(c.r.Body); err == nil {
			up.raw = b
			if mt == "application/json" && len(b) <= maxLoggedBody {
				c.logBody = b
			}
			up.setBodyProblem(decodeJSON(b, &up.body), "")
		}
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			c.bodyError(err)
			return false
		}
		up.bad = "Invalid multipart body"
	}
	if up.bad == "" && up.problems == nil {
		if entries, _ := up.body.Attachments.Get(); len(entries) > MaxMessageFiles {
			up.problems = map[string]string{"attachments": fmt.Sprintf("Must be %d or fewer in length.", MaxMessageFiles)}
		}
	}
	return true
}

// maxMultipartParts bounds the parts of a multipart body: payload_json and
// [MaxMessageFiles] files need 11, and the rest of the 64 leave room for
// form fields a client adds. A body with more is refused (400) at the
// first part past the bound, before it is read further: each part costs
// the reader a few hundred bytes of headers, so an unbounded count of
// empty parts would make the server allocate several times the body.
const maxMultipartParts = 64

const tooManyPartsMessage = "Invalid multipart body: more than 64 parts"

// readJSONPart reads a JSON body or part of at most MaxJSONBody bytes; a
// longer one is a *http.MaxBytesError.
func readJSONPart(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxJSONBody+1))
	if err == nil && len(b) > MaxJSONBody {
		err = &http.MaxBytesError{Limit: MaxJSONBody}
	}
	return b, err
}

// readMessageBody returns what readMessageUpload read, answering 400 and
// returning false when the body was bad.
func (c *call) readMessageBody() (webhookMessageBody, []webhookFile, bool) {
	up, _ := c.upload.(*messageUpload)
	switch {
	case up == nil:
		c.error(http.StatusBadRequest, guildkit.CodeInvalidFormBody, "Invalid body")
		return webhookMessageBody{}, nil, false
	case up.bad != "":
		c.error(http.StatusBadRequest, jsonErrorCode(up.bad), up.bad)
		return up.body, nil, false
	case up.problems != nil:
		c.formError(up.problems)
		return up.body, nil, false
	}
	return up.body, up.files, true
}

// readWebhookMultipart reads payload_json into up.body and counts the
// files[n] parts, stopping at the first problem. It touches no server
// state. The error is the reader's (a *http.MaxBytesError past the limit).
func readWebhookMultipart(r *http.Request, up *messageUpload) error {
	limitPartHeaders(r)
	mr, err := r.MultipartReader()
	if err != nil {
		up.bad = "Invalid multipart body"
		return nil
	}
	var scratch []byte // a file's bytes as they are read: made for the first file
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if parts == maxMultipartParts {
			part.Close()
			up.bad = tooManyPartsMessage
			return nil
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			b, err := readJSONPart(part)
			if err != nil {
				return err
			}
			up.raw = b
			if p := decodeJSON(b, &up.body); p != nil {
				up.setBodyProblem(p, invalidPayloadJSONMessage)
				return nil
			}
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 {
				up.problems = map[string]string{name: "Invalid file field"}
				return nil
			}
			if len(up.files) == MaxMessageFiles {
				up.problems = map[string]string{"files": fmt.Sprintf("Must be %d or fewer in length.", MaxMessageFiles)}
				return nil
			}
			if scratch == nil {
				scratch = make([]byte, attachmentKeep+1)
			}
			// Read into one buffer for all the files, then copied at its
			// size: a growing buffer per file would allocate twice it.
			read, err := io.ReadFull(part, scratch)
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return err
			}
			size := int64(read)
			var data []byte
			if size <= attachmentKeep {
				data = bytes.Clone(scratch[:read])
			} else {
				// Too large to keep: its size is counted, its bytes are not.
				more, err := io.Copy(io.Discard, part)
				if err != nil {
					return err
				}
				size += more
			}
			up.files = append(up.files, webhookFile{index: n, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), size: size, data: data})
		default:
			if _, err := io.Copy(io.Discard, part); err != nil {
				return err
			}
		}
		part.Close()
	}
}

// newAttachments returns kept followed by one attachment per received file,
// named and described by the attachments entry whose id is the file's index.
func (s *Server) newAttachments(channelID guildkit.Snowflake, kept []guildkit.Attachment, entries []guildkit.PartialAttachment, files []webhookFile) []guildkit.Attachment {
	out := append([]guildkit.Attachment{}, kept...)
	byIndex := make(map[guildkit.Snowflake]guildkit.PartialAttachment, len(entries))
	for _, e := range entries {
		byIndex[e.ID] = e // the last entry for an index wins
	}
	for _, f := range files {
		a := guildkit.Attachment{ID: s.newID(), Filename: f.filename, ContentType: f.contentType, Size: f.size}
		if e, ok := byIndex[guildkit.Snowflake(f.index)]; ok {
			if e.Filename != "" {
				a.Filename = e.Filename
			}
			a.Description = e.Description
		}
		if strings.HasPrefix(f.contentType, "image/") && f.data != nil {
			a.Width, a.Height = imageSize(f.data)
		}
		a.URL = fmt.Sprintf("%s/attachments/%s/%s/%s", s.URL, channelID, a.ID, url.PathEscape(a.Filename))
		a.ProxyURL = a.URL
		s.files.put(a.ID, storedFile{contentType: f.contentType, data: f.data})
		out = append(out, a)
	}
	return out
}
