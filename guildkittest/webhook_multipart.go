package guildkittest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
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
}

// readMessageBody reads a JSON body, or a multipart one (payload_json and
// files[n], streamed: file parts are counted and dropped). It answers 400
// and returns false on a bad body. While it reads a multipart body it
// releases s.mu, so that a large upload does not hold up other requests;
// callers look their state up again afterwards.
func (c *call) readMessageBody() (webhookMessageBody, []webhookFile, bool) {
	var b webhookMessageBody
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return b, nil, c.decode(&b)
	}
	c.s.mu.Unlock()
	files, bad, problem := readWebhookMultipart(c.r, &b)
	c.s.mu.Lock()
	switch {
	case bad != "":
		c.error(http.StatusBadRequest, guildkit.CodeInvalidFormBody, bad)
		return b, nil, false
	case problem != nil:
		c.formError(problem)
		return b, nil, false
	}
	return b, files, true
}

// readWebhookMultipart reads payload_json into b and counts the files[n]
// parts. It touches no server state.
func readWebhookMultipart(r *http.Request, b *webhookMessageBody) (files []webhookFile, bad string, problem map[string]string) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, "Invalid multipart body", nil
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return files, "", nil
		}
		if err != nil {
			return nil, "Invalid multipart body", nil
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			if err := json.NewDecoder(io.LimitReader(part, 1<<20)).Decode(b); err != nil {
				return nil, "The payload_json part is not valid JSON.", nil
			}
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 {
				return nil, "", map[string]string{name: "Invalid file field"}
			}
			size, err := io.Copy(io.Discard, part)
			if err != nil {
				return nil, "Invalid multipart body", nil
			}
			files = append(files, webhookFile{index: n, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), size: size})
		default:
			_, _ = io.Copy(io.Discard, part)
		}
		part.Close()
	}
}

// newAttachments returns kept followed by one attachment per received file,
// named and described by the attachments entry whose id is the file's index.
func (s *Server) newAttachments(channelID guildkit.Snowflake, kept []guildkit.Attachment, entries []guildkit.PartialAttachment, files []webhookFile) []guildkit.Attachment {
	out := append([]guildkit.Attachment{}, kept...)
	for _, f := range files {
		a := guildkit.Attachment{ID: s.newID(), Filename: f.filename, ContentType: f.contentType, Size: f.size}
		for _, e := range entries {
			if int(e.ID) == f.index {
				if e.Filename != "" {
					a.Filename = e.Filename
				}
				a.Description = e.Description
			}
		}
		a.URL = fmt.Sprintf("%s/attachments/%s/%s/%s", s.URL, channelID, a.ID, a.Filename)
		a.ProxyURL = a.URL
		out = append(out, a)
	}
	return out
}
