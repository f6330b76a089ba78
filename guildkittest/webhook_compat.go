package guildkittest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/wire"
)

// compatWait reads wait for the compatibility routes, where it defaults to
// true.
func (c *call) compatWait() bool { return c.r.URL.Query().Get("wait") != "false" }

func (s *Server) executeChatCompat(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	var p guildkit.ChatCompatPayload
	if !c.decode(&p) {
		return
	}
	threadID, ok := c.queryThreadID()
	if !ok {
		return
	}
	var b webhookMessageBody
	content := p.Text
	if content == "" {
		content = chatCompatBlocksText(p.Blocks)
	}
	var embeds []guildkit.Embed
	for _, a := range p.Attachments {
		if a.Pretext != "" {
			content = strings.TrimSpace(content + "\n" + a.Pretext)
		}
		em := guildkit.Embed{Title: a.Title, URL: a.TitleLink, Description: a.Text}
		if a.Color != "" {
			if v, err := strconv.ParseUint(strings.TrimPrefix(a.Color, "#"), 16, 32); err == nil {
				em.Color = guildkit.Some(int(v) & 0xFFFFFF)
			}
		}
		if a.AuthorName != "" {
			em.Author = &guildkit.EmbedAuthor{Name: a.AuthorName, URL: a.AuthorLink, IconURL: a.AuthorIcon}
		}
		for _, f := range a.Fields {
			em.Fields = append(em.Fields, guildkit.EmbedField{Name: f.Title, Value: f.Value, Inline: f.Short})
		}
		if a.ImageURL != "" {
			em.Image = &guildkit.EmbedMedia{URL: a.ImageURL}
		}
		if a.ThumbURL != "" {
			em.Thumbnail = &guildkit.EmbedMedia{URL: a.ThumbURL}
		}
		if a.Footer != "" {
			em.Footer = &guildkit.EmbedFooter{Text: a.Footer, IconURL: a.FooterIcon}
		}
		if ts, err := a.TS.Float64(); err == nil && ts > 0 {
			em.Timestamp = time.Unix(int64(ts), 0).UTC()
		}
		if em.Description == "" && em.Title == "" && a.Fallback != "" {
			em.Description = a.Fallback
		}
		embeds = append(embeds, em)
	}
	if content != "" {
		b.Content = wire.Some(content)
	}
	if len(embeds) > 0 {
		b.Embeds = wire.Some(embeds)
	}
	if p.Username != "" {
		b.Username = wire.Some(p.Username)
	}
	if p.IconURL != "" {
		b.AvatarURL = wire.Some(p.IconURL)
	}
	s.postWebhookMessage(c, e, b, nil, threadID, c.compatWait())
}

// chatCompatBlocksText takes the text of section and header blocks.
func chatCompatBlocksText(blocks []json.RawMessage) string {
	var lines []string
	for _, raw := range blocks {
		var blk struct {
			Text *struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		if json.Unmarshal(raw, &blk) == nil && blk.Text != nil && blk.Text.Text != "" {
			lines = append(lines, blk.Text.Text)
		}
	}
	return strings.Join(lines, "\n")
}

func (s *Server) executeRepoCompat(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	event := guildkit.RepoEvent(c.r.Header.Get(guildkit.RepoEventHeader))
	if event == "" {
		c.error(http.StatusBadRequest, guildkit.CodeInvalidRequest, "Missing the "+guildkit.RepoEventHeader+" header")
		return
	}
	var payload map[string]any
	if !c.decode(&payload) {
		return
	}
	threadID, ok := c.queryThreadID()
	if !ok {
		return
	}
	if !slices.Contains(guildkit.RepoEvents, event) {
		c.noContent() // unsupported events are accepted and dropped
		return
	}
	b := webhookMessageBody{Content: wire.Some(repoCompatSummary(event, payload)), Username: wire.Some("GitHub")}
	s.postWebhookMessage(c, e, b, nil, threadID, c.compatWait())
}

// repoCompatSummary is the short message a repository event becomes.
func repoCompatSummary(event guildkit.RepoEvent, p map[string]any) string {
	str := func(path ...string) string {
		var cur any = p
		for _, k := range path {
			m, ok := cur.(map[string]any)
			if !ok {
				return ""
			}
			cur = m[k]
		}
		switch v := cur.(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return ""
	}
	repo := cmp.Or(str("repository", "full_name"), str("repository", "name"), "repository")
	action := str("action")
	switch event {
	case guildkit.RepoEventPush:
		commits, _ := p["commits"].([]any)
		branch := strings.TrimPrefix(str("ref"), "refs/heads/")
		word := "commits"
		if len(commits) == 1 {
			word = "commit"
		}
		return fmt.Sprintf("[%s:%s] %d new %s", repo, branch, len(commits), word)
	case guildkit.RepoEventIssues:
		return fmt.Sprintf("[%s] Issue %s: #%s %s", repo, action, str("issue", "number"), str("issue", "title"))
	case guildkit.RepoEventPullRequest:
		return fmt.Sprintf("[%s] Pull request %s: #%s %s", repo, action, str("pull_request", "number"), str("pull_request", "title"))
	case guildkit.RepoEventRelease:
		return fmt.Sprintf("[%s] Release %s: %s", repo, action, str("release", "tag_name"))
	case guildkit.RepoEventWatch:
		return fmt.Sprintf("[%s] New star added", repo)
	case guildkit.RepoEventFork:
		return fmt.Sprintf("[%s] Fork created: %s", repo, str("forkee", "full_name"))
	}
	if action != "" {
		return fmt.Sprintf("[%s] %s %s", repo, event, action)
	}
	return fmt.Sprintf("[%s] %s", repo, event)
}
