package guildkit

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/internal/jsondec"
	"github.com/seed012df1e9/guildkit/internal/jsonenc"
	"github.com/seed012df1e9/guildkit/internal/jsonscan"
	"github.com/seed012df1e9/guildkit/wire"
)

// Embed is rich content of a message, the reference platform's embed. In a
// request every field may be set except Type (always rich), Provider, Video,
// and the proxy URLs and sizes of images; the client refuses those.
type Embed struct {
	Title       string    `json:"title,omitempty"`       // up to 256 characters
	Type        EmbedType `json:"type,omitempty"`        // "rich" for embeds a webhook sends
	Description string    `json:"description,omitempty"` // up to 4096 characters
	URL         string    `json:"url,omitempty"`
	Timestamp   time.Time `json:"timestamp,omitzero"`
	// Color is the colour of the embed's left border, 0xRRGGBB; omitted means
	// the default. Zero Opt when absent, Null when null.
	Color     Opt[int]       `json:"color,omitzero"`
	Footer    *EmbedFooter   `json:"footer,omitempty"`    // nil when absent
	Image     *EmbedMedia    `json:"image,omitempty"`     // nil when absent
	Thumbnail *EmbedMedia    `json:"thumbnail,omitempty"` // nil when absent
	Video     *EmbedMedia    `json:"video,omitempty"`     // response only; nil when absent
	Provider  *EmbedProvider `json:"provider,omitempty"`  // response only; nil when absent
	Author    *EmbedAuthor   `json:"author,omitempty"`    // nil when absent
	Fields    []EmbedField   `json:"fields,omitzero"`     // up to 25

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedType is the kind of an embed: "rich" for embeds sent by webhooks and
// bots, others for link previews.
type EmbedType string

// Embed types.
const (
	EmbedTypeRich    EmbedType = "rich"
	EmbedTypeImage   EmbedType = "image"
	EmbedTypeVideo   EmbedType = "video"
	EmbedTypeGIFV    EmbedType = "gifv"
	EmbedTypeArticle EmbedType = "article"
	EmbedTypeLink    EmbedType = "link"
)

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text         string `json:"text"` // up to 2048 characters
	IconURL      string `json:"icon_url,omitempty"`
	ProxyIconURL string `json:"proxy_icon_url,omitempty"` // response only

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedMedia is an embed's image, thumbnail or video. Only URL may be set in a
// request.
type EmbedMedia struct {
	URL      string `json:"url"`
	ProxyURL string `json:"proxy_url,omitempty"`
	Height   int    `json:"height,omitempty"`
	Width    int    `json:"width,omitempty"`

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedProvider is the site a link preview comes from (response only).
type EmbedProvider struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedAuthor is an embed's author line.
type EmbedAuthor struct {
	Name         string `json:"name"` // up to 256 characters
	URL          string `json:"url,omitempty"`
	IconURL      string `json:"icon_url,omitempty"`
	ProxyIconURL string `json:"proxy_icon_url,omitempty"` // response only

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedField is one name/value field of an embed.
type EmbedField struct {
	Name   string `json:"name"`  // up to 256 characters
	Value  string `json:"value"` // up to 1024 characters
	Inline bool   `json:"inline,omitempty"`

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// UnmarshalJSON decodes an embed. Like every embed object (footer, media,
// provider, author, field), it keeps the members its Go fields would drop,
// members this package does not model and explicit zero values its
// omitempty fields leave out, and MarshalJSON writes them back after its
// own fields: an embed read from a message and sent again carries
// everything it came with. A field given a value after decoding wins over a
// kept member of the same name.
func (e *Embed) UnmarshalJSON(b []byte) error {
	type plain Embed
	return jsonscan.Decode(b, (*plain)(e), &e.kept, embedFields)
}

// MarshalJSON encodes e with the members its decoding kept.
func (e Embed) MarshalJSON() ([]byte, error) {
	if e.kept == "" {
		if b, ok := appendEmbed(make([]byte, 0, 256), &e); ok {
			return b, nil
		}
	}
	type plain Embed
	return jsonscan.MarshalKept(plain(e), e.kept)
}

// appendEmbed writes what json.Marshal writes for *e, without its
// reflection and copies when e and its objects kept no members: a
// message's embeds are encoded on every send. It reports false for a
// timestamp encoding/json refuses.
func appendEmbed(b []byte, e *Embed) ([]byte, bool) {
	if e.kept != "" {
		return appendMarshal(b, e)
	}
	b = append(b, '{')
	n := len(b)
	if e.Title != "" {
		b = jsonscan.AppendString(embedKey(b, n, `"title":`), e.Title)
	}
	if e.Type != "" {
		b = jsonscan.AppendString(embedKey(b, n, `"type":`), string(e.Type))
	}
	if e.Description != "" {
		b = jsonscan.AppendString(embedKey(b, n, `"description":`), e.Description)
	}
	if e.URL != "" {
		b = jsonscan.AppendString(embedKey(b, n, `"url":`), e.URL)
	}
	if !e.Timestamp.IsZero() {
		var err error
		b = append(embedKey(b, n, `"timestamp":`), '"')
		if b, err = e.Timestamp.AppendText(b); err != nil {
			return nil, false
		}
		b = append(b, '"')
	}
	if !e.Color.IsZero() {
		b = embedKey(b, n, `"color":`)
		if c, ok := e.Color.Get(); ok {
			b = strconv.AppendInt(b, int64(c), 10)
		} else {
			b = append(b, "null"...)
		}
	}
	ok := true
	if e.Footer != nil {
		if b, ok = appendEmbedFooter(embedKey(b, n, `"footer":`), e.Footer); !ok {
			return nil, false
		}
	}
	for _, m := range [...]struct {
		key string
		v   *EmbedMedia
	}{{`"image":`, e.Image}, {`"thumbnail":`, e.Thumbnail}, {`"video":`, e.Video}} {
		if m.v != nil {
			if b, ok = appendEmbedMedia(embedKey(b, n, m.key), m.v); !ok {
				return nil, false
			}
		}
	}
	if e.Provider != nil {
		if b, ok = appendEmbedProvider(embedKey(b, n, `"provider":`), e.Provider); !ok {
			return nil, false
		}
	}
	if e.Author != nil {
		if b, ok = appendEmbedAuthor(embedKey(b, n, `"author":`), e.Author); !ok {
			return nil, false
		}
	}
	if e.Fields != nil {
		b = append(embedKey(b, n, `"fields":`), '[')
		for i := range e.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendEmbedField(b, &e.Fields[i]); !ok {
				return nil, false
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

// embedKey writes key, after a comma unless the object begun at n is
// still empty.
func embedKey(b []byte, n int, key string) []byte {
	if len(b) > n {
		b = append(b, ',')
	}
	return append(b, key...)
}

// appendMarshal writes json.Marshal(v), or reports false when it fails:
// an embed object that kept members, rare enough to be left to it.
func appendMarshal(b []byte, v any) ([]byte, bool) {
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	return append(b, enc...), true
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedFooter) UnmarshalJSON(b []byte) error {
	type plain EmbedFooter
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedFooterFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedFooter) MarshalJSON() ([]byte, error) {
	if v.kept == "" {
		b, _ := appendEmbedFooter(make([]byte, 0, len(v.Text)+len(v.IconURL)+len(v.ProxyIconURL)+48), &v)
		return b, nil
	}
	type plain EmbedFooter
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// appendEmbedFooter writes what json.Marshal writes for *v; see appendEmbed.
func appendEmbedFooter(b []byte, v *EmbedFooter) ([]byte, bool) {
	if v.kept != "" {
		return appendMarshal(b, v)
	}
	b = jsonscan.AppendString(append(b, `{"text":`...), v.Text)
	if v.IconURL != "" {
		b = jsonscan.AppendString(append(b, `,"icon_url":`...), v.IconURL)
	}
	if v.ProxyIconURL != "" {
		b = jsonscan.AppendString(append(b, `,"proxy_icon_url":`...), v.ProxyIconURL)
	}
	return append(b, '}'), true
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedMedia) UnmarshalJSON(b []byte) error {
	type plain EmbedMedia
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedMediaFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedMedia) MarshalJSON() ([]byte, error) {
	type plain EmbedMedia
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedProvider) UnmarshalJSON(b []byte) error {
	type plain EmbedProvider
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedProviderFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedProvider) MarshalJSON() ([]byte, error) {
	type plain EmbedProvider
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedAuthor) UnmarshalJSON(b []byte) error {
	type plain EmbedAuthor
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedAuthorFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedAuthor) MarshalJSON() ([]byte, error) {
	type plain EmbedAuthor
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedField) UnmarshalJSON(b []byte) error {
	type plain EmbedField
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedFieldFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedField) MarshalJSON() ([]byte, error) {
	if v.kept == "" {
		// An embed has up to 25 fields, encoded on every send.
		b, _ := appendEmbedField(make([]byte, 0, len(v.Name)+len(v.Value)+40), &v)
		return b, nil
	}
	type plain EmbedField
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// appendEmbedField writes what json.Marshal writes for *v; see appendEmbed.
func appendEmbedField(b []byte, v *EmbedField) ([]byte, bool) {
	if v.kept != "" {
		return appendMarshal(b, v)
	}
	b = jsonscan.AppendString(append(b, `{"name":`...), v.Name)
	b = jsonscan.AppendString(append(b, `,"value":`...), v.Value)
	if v.Inline {
		b = append(b, `,"inline":true`...)
	}
	return append(b, '}'), true
}

// appendEmbedMedia writes what json.Marshal writes for *v; see appendEmbed.
func appendEmbedMedia(b []byte, v *EmbedMedia) ([]byte, bool) {
	if v.kept != "" {
		return appendMarshal(b, v)
	}
	b = jsonscan.AppendString(append(b, `{"url":`...), v.URL)
	if v.ProxyURL != "" {
		b = jsonscan.AppendString(append(b, `,"proxy_url":`...), v.ProxyURL)
	}
	if v.Height != 0 {
		b = strconv.AppendInt(append(b, `,"height":`...), int64(v.Height), 10)
	}
	if v.Width != 0 {
		b = strconv.AppendInt(append(b, `,"width":`...), int64(v.Width), 10)
	}
	return append(b, '}'), true
}

// appendEmbedProvider writes what json.Marshal writes for *v; see
// appendEmbed.
func appendEmbedProvider(b []byte, v *EmbedProvider) ([]byte, bool) {
	if v.kept != "" {
		return appendMarshal(b, v)
	}
	b = append(b, '{')
	n := len(b)
	if v.Name != "" {
		b = jsonscan.AppendString(embedKey(b, n, `"name":`), v.Name)
	}
	if v.URL != "" {
		b = jsonscan.AppendString(embedKey(b, n, `"url":`), v.URL)
	}
	return append(b, '}'), true
}

// appendEmbedAuthor writes what json.Marshal writes for *v; see appendEmbed.
func appendEmbedAuthor(b []byte, v *EmbedAuthor) ([]byte, bool) {
	if v.kept != "" {
		return appendMarshal(b, v)
	}
	b = jsonscan.AppendString(append(b, `{"name":`...), v.Name)
	if v.URL != "" {
		b = jsonscan.AppendString(append(b, `,"url":`...), v.URL)
	}
	if v.IconURL != "" {
		b = jsonscan.AppendString(append(b, `,"icon_url":`...), v.IconURL)
	}
	if v.ProxyIconURL != "" {
		b = jsonscan.AppendString(append(b, `,"proxy_icon_url":`...), v.ProxyIconURL)
	}
	return append(b, '}'), true
}

// Answers decode the embed objects without calling their UnmarshalJSON,
// which the decoder reproduces, kept members included.
func init() {
	for t, fs := range map[reflect.Type]*jsonscan.FieldSet{
		reflect.TypeFor[Embed]():         embedFields,
		reflect.TypeFor[EmbedFooter]():   embedFooterFields,
		reflect.TypeFor[EmbedMedia]():    embedMediaFields,
		reflect.TypeFor[EmbedProvider](): embedProviderFields,
		reflect.TypeFor[EmbedAuthor]():   embedAuthorFields,
		reflect.TypeFor[EmbedField]():    embedFieldFields,
	} {
		jsondec.DecodeKeeping(t, fs)
	}
	// Request bodies write embeds without encoding/json.
	jsonenc.Register(appendEmbed)
}

// The members each embed object models, for [jsonscan.Kept.Collect].
var (
	embedFields         = jsonscan.FieldsOf[Embed]()
	embedFooterFields   = jsonscan.FieldsOf[EmbedFooter]()
	embedMediaFields    = jsonscan.FieldsOf[EmbedMedia]()
	embedProviderFields = jsonscan.FieldsOf[EmbedProvider]()
	embedAuthorFields   = jsonscan.FieldsOf[EmbedAuthor]()
	embedFieldFields    = jsonscan.FieldsOf[EmbedField]()
)

// validateMessageEmbeds checks a message's embeds: at most 10, each by
// [validateEmbed], and at most 6000 characters across all of them.
func validateMessageEmbeds(v *ValidationError, path string, embeds []Embed) {
	if len(embeds) > MaxMessageEmbeds {
		v.Add(path, wire.CodeLength, "at most %d embeds, got %d", MaxMessageEmbeds, len(embeds))
	}
	total := 0
	for i := range embeds {
		total += validateEmbed(v, path+"["+strconv.Itoa(i)+"]", &embeds[i])
	}
	if total > MaxEmbedTotal {
		v.Add(path, wire.CodeLength, "at most %d characters across all embeds, got %d", MaxEmbedTotal, total)
	}
}

// validateEmbed checks one embed a request sends, its problems under path
// (nothing for the embed itself): type rich; provider, video and the proxy
// URLs and sizes of images not settable; each text's limit, measured after
// trimming white space as the platform measures it; footer text, author
// name and every field's name and value present; image and icon URLs
// http(s) or attachment://; the colour in 0x000000-0xFFFFFF. It returns
// the characters that count toward the 6000 of a message.
func validateEmbed(v *ValidationError, p string, e *Embed) (total int) {
	at := func(field string) string { return wire.JoinPath(p, field) }
	if e.Type != "" && e.Type != EmbedTypeRich {
		v.Add(at("type"), wire.CodeNotAllowed, "a sent embed is always rich, got %q", e.Type)
	}
	if e.Provider != nil {
		v.Add(at("provider"), wire.CodeNotAllowed, "provider cannot be set")
	}
	if e.Video != nil {
		v.Add(at("video"), wire.CodeNotAllowed, "video cannot be set")
	}
	embedURL(v, p, "url", e.URL, false)
	for _, m := range [...]struct {
		name  string
		media *EmbedMedia
	}{{"image", e.Image}, {"thumbnail", e.Thumbnail}} {
		if m.media == nil {
			continue
		}
		if m.media.URL == "" {
			v.Add(at(m.name+".url"), wire.CodeRequired, "url is required")
		}
		embedURL(v, p, m.name+".url", m.media.URL, true)
		if m.media.ProxyURL != "" || m.media.Height != 0 || m.media.Width != 0 {
			v.Add(at(m.name), wire.CodeNotAllowed, "proxy_url, height and width cannot be set")
		}
	}
	if c, ok := e.Color.Get(); ok && (c < 0 || c > 0xFFFFFF) {
		v.Add(at("color"), wire.CodeRange, "0x000000-0xFFFFFF, got %#x", c)
	}
	if e.Color.IsNull() {
		notNull(v, at("color"), e.Color)
	}
	total += embedText(v, p, "title", e.Title, MaxEmbedTitle)
	total += embedText(v, p, "description", e.Description, MaxEmbedDescription)
	if e.Footer != nil {
		total += embedText(v, p, "footer.text", e.Footer.Text, MaxEmbedFooterText)
		if strings.TrimSpace(e.Footer.Text) == "" {
			v.Add(at("footer.text"), wire.CodeRequired, "footer text is required")
		}
		embedURL(v, p, "footer.icon_url", e.Footer.IconURL, true)
		if e.Footer.ProxyIconURL != "" {
			v.Add(at("footer.proxy_icon_url"), wire.CodeNotAllowed, "proxy_icon_url cannot be set")
		}
	}
	if e.Author != nil {
		total += embedText(v, p, "author.name", e.Author.Name, MaxEmbedAuthorName)
		if strings.TrimSpace(e.Author.Name) == "" {
			v.Add(at("author.name"), wire.CodeRequired, "author name is required")
		}
		embedURL(v, p, "author.url", e.Author.URL, false)
		embedURL(v, p, "author.icon_url", e.Author.IconURL, true)
		if e.Author.ProxyIconURL != "" {
			v.Add(at("author.proxy_icon_url"), wire.CodeNotAllowed, "proxy_icon_url cannot be set")
		}
	}
	if len(e.Fields) > MaxEmbedFields {
		v.Add(at("fields"), wire.CodeLength, "at most %d fields, got %d", MaxEmbedFields, len(e.Fields))
	}
	for j, f := range e.Fields {
		// The field's path is made only for a problem.
		fp := func(leaf string) string { return at("fields[" + strconv.Itoa(j) + "]." + leaf) }
		if strings.TrimSpace(f.Name) == "" {
			v.Add(fp("name"), wire.CodeRequired, "field name is required")
		}
		if strings.TrimSpace(f.Value) == "" {
			v.Add(fp("value"), wire.CodeRequired, "field value is required")
		}
		if n := textLen(f.Name); n > MaxEmbedFieldName {
			v.Add(fp("name"), wire.CodeLength, "at most %d characters, got %d", MaxEmbedFieldName, n)
		}
		if n := textLen(f.Value); n > MaxEmbedFieldValue {
			v.Add(fp("value"), wire.CodeLength, "at most %d characters, got %d", MaxEmbedFieldValue, n)
		}
		total += textLen(f.Name) + textLen(f.Value)
	}
	return total
}

// embedText reports s longer than max characters once trimmed of white
// space at field under p, and returns its trimmed length in characters.
func embedText(v *ValidationError, p, field, s string, max int) int {
	n := textLen(s)
	if n > max {
		v.Add(wire.JoinPath(p, field), wire.CodeLength, "at most %d characters, got %d", max, n)
	}
	return n
}

// textLen is the length of s in characters once trimmed of white space,
// as the platform measures embed texts.
func textLen(s string) int { return utf8.RuneCountInString(strings.TrimSpace(s)) }

// embedURL reports a URL at field under p that is not http(s) (nor
// attachment://, when attachments are allowed: images and icons).
func embedURL(v *ValidationError, p, field, u string, attachment bool) {
	if u == "" {
		return
	}
	if hasPrefixFold(u, "https://") || hasPrefixFold(u, "http://") {
		return
	}
	path := wire.JoinPath(p, field)
	if attachment && hasPrefixFold(u, "attachment://") {
		if !attachmentImage(strings.ToLower(u)) {
			v.Add(path, wire.CodeInvalid, "attachment:// may name only a .jpg, .jpeg, .png, .webp or .gif file, got %q", u)
		}
		return
	}
	if attachment {
		v.Add(path, wire.CodeInvalid, "an http(s) or attachment:// URL, got %q", u)
	} else {
		v.Add(path, wire.CodeInvalid, "an http(s) URL, got %q", u)
	}
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// attachmentImage reports whether an attachment:// URL names an image the
// platform shows in an embed.
func attachmentImage(lower string) bool {
	for _, ext := range [...]string{".jpg", ".jpeg", ".png", ".webp", ".gif"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// Validate checks e as a request would send it, and reports every problem
// in one [*ValidationError] whose paths are the embed's own ("title",
// "fields[2].value", "footer.icon_url"), as [components.Validate] does for
// components: the text limits ([MaxEmbedTitle], [MaxEmbedDescription],
// [MaxEmbedFields], [MaxEmbedFieldName], [MaxEmbedFieldValue],
// [MaxEmbedFooterText], [MaxEmbedAuthorName]; [MaxEmbedTotal] for the
// embed alone) measured after trimming white space; required footer text,
// author name and field names and values; http(s) URLs, and for images and
// icons attachment:// URLs naming a .jpg, .jpeg, .png, .webp or .gif;
// the colour's range; and the fields a request cannot set (a type other
// than rich, provider, video, the proxy URLs and image sizes). Sending
// checks the same, with the 6000-character total across every embed of the
// message. A nil embed is valid.
func (e *Embed) Validate() error {
	if e == nil {
		return nil
	}
	var v ValidationError
	if total := validateEmbed(&v, "", e); total > MaxEmbedTotal {
		v.Add("", wire.CodeLength, "at most %d characters in all, got %d", MaxEmbedTotal, total)
	}
	return v.Err()
}

// NewEmbed starts an embed with a title and a description, either of which
// may be "". Its methods set the rest and return it, so an embed reads
// like what it shows:
//
//	e := guildkit.NewEmbed("Ban", user.Mention()+" was banned").
//		WithColor(0xE74C3C).
//		WithField("Reason", reason, false).
//		WithFooter("moderation log", "").
//		WithTimestamp(time.Now())
//
// A struct literal of [Embed] is as good; [Embed.Validate] checks either.
func NewEmbed(title, description string) *Embed {
	return &Embed{Title: title, Description: description}
}

// WithURL sets the link of the title.
func (e *Embed) WithURL(url string) *Embed { e.URL = url; return e }

// WithColor sets the colour of the left border, 0xRRGGBB.
func (e *Embed) WithColor(rgb int) *Embed { e.Color = Some(rgb); return e }

// WithTimestamp sets the time shown in the footer, each reader seeing it in
// their own time zone.
func (e *Embed) WithTimestamp(t time.Time) *Embed { e.Timestamp = t; return e }

// WithAuthor sets the author line: a name, with a link and an icon when
// url and iconURL are not "".
func (e *Embed) WithAuthor(name, url, iconURL string) *Embed {
	e.Author = &EmbedAuthor{Name: name, URL: url, IconURL: iconURL}
	return e
}

// WithFooter sets the footer's text, with an icon when iconURL is not "".
func (e *Embed) WithFooter(text, iconURL string) *Embed {
	e.Footer = &EmbedFooter{Text: text, IconURL: iconURL}
	return e
}

// WithImage sets the large image, an http(s) URL or "attachment://" and
// the name of a file sent with the message.
func (e *Embed) WithImage(url string) *Embed { e.Image = &EmbedMedia{URL: url}; return e }

// WithThumbnail sets the small image at the top right, as [Embed.WithImage].
func (e *Embed) WithThumbnail(url string) *Embed { e.Thumbnail = &EmbedMedia{URL: url}; return e }

// WithField adds a field; inline fields sit side by side, up to three in a
// row.
func (e *Embed) WithField(name, value string, inline bool) *Embed {
	e.Fields = append(e.Fields, EmbedField{Name: name, Value: value, Inline: inline})
	return e
}

// Len returns the characters of e that count toward the 6000 of a message
// ([MaxEmbedTotal]): title, description, field names and values, footer
// text and author name, each trimmed of white space.
func (e *Embed) Len() int {
	n := textLen(e.Title) + textLen(e.Description)
	for _, f := range e.Fields {
		n += textLen(f.Name) + textLen(f.Value)
	}
	if e.Footer != nil {
		n += textLen(e.Footer.Text)
	}
	if e.Author != nil {
		n += textLen(e.Author.Name)
	}
	return n
}
