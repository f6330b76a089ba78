package guildkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed012df1e9/guildkit"
)

// BenchmarkExecuteWebhookFile uploads a 64 KiB log from a file on disk, as a
// bot does, beside a plain net/http client that streams the same file
// through mime/multipart with a pipe (a Content-Length it cannot know, so
// chunked too): the upload the twin benchmarks make from memory, from a
// real *os.File.
func BenchmarkExecuteWebhookFile(b *testing.B) {
	srv := twinServer(b, true)
	base := srv.URL + "/api/v10"
	hc := srv.Client()
	c, err := guildkit.New(guildkit.BotToken(twinToken), guildkit.WithBaseURL(base), guildkit.WithHTTPClient(hc),
		guildkit.WithGlobalRateLimit(0, 1)) // as the floor: no global limit
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "build.log")
	line := []byte("2026-11-25T10:00:00.123456Z ok step finished\n")
	var content []byte
	for len(content) < 64<<10 {
		content = append(content, line...)
	}
	if err := os.WriteFile(path, content[:64<<10], 0o600); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()

	b.Run("guildkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			_, err = c.Webhooks.Execute(ctx, 300000000000000002, "hook-token", &guildkit.WebhookExecuteParams{
				Wait: guildkit.Some(true), Content: guildkit.Some("build log"),
				Files: []guildkit.File{{Name: "build.log", ContentType: "text/plain", Reader: f}},
			})
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			pr, pw := io.Pipe()
			mw := multipart.NewWriter(pw)
			go func() {
				pj, _ := mw.CreateFormField("payload_json")
				_, _ = pj.Write([]byte(`{"content":"build log","attachments":[{"id":0,"filename":"build.log"}]}`))
				fw, _ := mw.CreateFormFile("files[0]", "build.log")
				_, err := io.Copy(fw, f)
				if err == nil {
					err = mw.Close()
				}
				pw.CloseWithError(err)
			}()
			req, err := http.NewRequestWithContext(ctx, "POST", base+"/webhooks/300000000000000002/hook-token?wait=true", pr)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bot "+twinToken)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var m floorMessage
			err = decodeFloor(resp, &m)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// decodeFloor reads a floor client's answer.
func decodeFloor(resp *http.Response, out any) error {
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
