package guildkittest

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/seed012df1e9/guildkit"
)

// Attachment files.
//
// The URL of an attachment the server answers with serves the uploaded
// bytes with their content type, as the reference platform's CDN does:
// GET URL/attachments/{channel.id}/{attachment.id}/{filename}. Memory is
// bounded: a file over attachmentKeep is counted but not kept, and the
// store keeps the most recent files up to attachmentStore bytes; a URL
// whose file was not kept answers 404.

const (
	attachmentKeep  = 256 << 10 // the largest file kept: logs, images and test files, not large uploads
	attachmentStore = 64 << 20  // the bytes kept in all
)

type storedFile struct {
	contentType string
	data        []byte
}

// fileStore keeps the most recent uploaded files, oldest dropped first. It
// has its own lock: a download does not wait for the server's.
type fileStore struct {
	mu    sync.Mutex
	files map[guildkit.Snowflake]storedFile
	order []guildkit.Snowflake
	bytes int
}

func (fs *fileStore) put(id guildkit.Snowflake, f storedFile) {
	if f.data == nil {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.files == nil {
		fs.files = make(map[guildkit.Snowflake]storedFile)
	}
	fs.files[id] = f
	fs.order = append(fs.order, id)
	fs.bytes += len(f.data)
	for fs.bytes > attachmentStore && len(fs.order) > 0 {
		old := fs.order[0]
		fs.order = fs.order[1:]
		fs.bytes -= len(fs.files[old].data)
		delete(fs.files, old)
	}
}

func (fs *fileStore) get(id guildkit.Snowflake) (storedFile, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f, ok := fs.files[id]
	return f, ok
}

func (fs *fileStore) reset() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.files, fs.order, fs.bytes = nil, nil, 0
}

// serveAttachment answers GET /attachments/{channel}/{id}/{filename}.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	f, ok := s.files.get(guildkit.Snowflake(id))
	if err != nil || !ok {
		http.NotFound(w, r)
		return
	}
	ct := f.contentType
	if ct == "" {
		ct = http.DetectContentType(f.data)
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(f.data)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(f.data)
}
