package guildkittest

import (
	"bytes"
	"image"
	_ "image/gif" // image.DecodeConfig reads the formats a client shows inline
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

// resolveMedia fills the response-only fields of the unfurled media items
// in comps, as the reference platform answers them: every item has an id
// and a proxy_url (the emulator proxies nothing: an external URL is its
// own proxy URL; the ids are the message's id plus the item's place, the
// same on every read); an item that references one of atts
// ("attachment://<filename>") has the attachment's attachment_id,
// content_type, proxy_url and, for an image, width and height, and a File
// component its name and size. The url stays the attachment:// reference
// the message was sent with, so components read from an answer can be
// sent back unchanged in an edit.
func resolveMedia(messageID guildkit.Snowflake, comps components.List, atts []guildkit.Attachment) {
	n := guildkit.Snowflake(0)
	find := func(u string) *guildkit.Attachment {
		name, ok := strings.CutPrefix(u, "attachment://")
		if !ok {
			return nil
		}
		for i := range atts {
			if atts[i].Filename == name {
				return &atts[i]
			}
		}
		return nil
	}
	media := func(m *components.UnfurledMediaItem) *guildkit.Attachment {
		n++
		if m.ID == 0 {
			// Stable across reads, and out of the way of the ids the
			// server makes: the top of the message's millisecond, counting
			// down (newID counts up from its bottom).
			m.ID = messageID&^0x3FFFFF | (0x3FFFFF - guildkit.Snowflake(n))
		}
		a := find(m.URL)
		if a == nil {
			if m.ProxyURL == "" {
				m.ProxyURL = m.URL
			}
			return nil
		}
		m.AttachmentID = a.ID
		m.ContentType = a.ContentType
		m.ProxyURL = a.ProxyURL
		if a.Width != nil && a.Height != nil {
			m.Width, m.Height = components.Some(*a.Width), components.Some(*a.Height)
		} else {
			m.Width, m.Height = components.Null[int](), components.Null[int]()
		}
		return a
	}
	var walk func(list []components.Component)
	walk = func(list []components.Component) {
		for _, c := range list {
			switch c := c.(type) {
			case *components.File:
				if a := media(&c.File); a != nil {
					c.Name, c.Size = a.Filename, a.Size
				}
			case *components.Thumbnail:
				media(&c.Media)
			case *components.MediaGallery:
				for i := range c.Items {
					media(&c.Items[i].Media)
				}
			case *components.ActionRow:
				walk(c.Components)
			case *components.Section:
				walk(c.Components)
				walk([]components.Component{c.Accessory})
			case *components.Container:
				walk(c.Components)
			}
		}
	}
	walk(comps)
}

// imageSize returns an image's width and height when data is a GIF, JPEG
// or PNG image, for its attachment's width and height.
func imageSize(data []byte) (width, height *int) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, nil
	}
	return &cfg.Width, &cfg.Height
}
