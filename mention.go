package guildkit

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// MentionKind is what a [Mention] refers to.
type MentionKind int

// Mention kinds.
const (
	MentionKindUser      MentionKind = iota + 1 // <@id>, or the older <@!id>
	MentionKindRole                             // <@&id>
	MentionKindChannel                          // <#id>
	MentionKindCommand                          // </name:id>, </name sub:id>
	MentionKindEmoji                            // <:name:id>, <a:name:id>
	MentionKindTimestamp                        // <t:unix>, <t:unix:R>
	MentionKindEveryone                         // @everyone
	MentionKindHere                             // @here
)

var mentionKindNames = []string{"", "USER", "ROLE", "CHANNEL", "COMMAND", "EMOJI", "TIMESTAMP", "EVERYONE", "HERE"}

// String returns the kind's name: "USER", "ROLE", ...
func (k MentionKind) String() string { return enumString("MentionKind", mentionKindNames, int(k)) }

// Mention is one piece of markup found in a message's text by
// [ParseMention] or [FindMentions].
type Mention struct {
	Kind MentionKind
	// ID is the user, role, channel, command or emoji; zero for the other
	// kinds.
	ID Snowflake
	// Name is a command's name with its subcommand group and subcommand
	// ("tag get"), or an emoji's name; "" for the other kinds.
	Name string
	// Animated is set for an animated emoji (<a:name:id>).
	Animated bool
	// Time and Style are a timestamp's, Time in UTC.
	Time  time.Time
	Style TimestampStyle
	// Raw is the markup as written, and Index where it starts in the text
	// (a byte offset; 0 for ParseMention).
	Raw   string
	Index int
}

// String returns the markup that writes m, from its fields (a user
// mention as "<@id>" even when Raw is the older "<@!id>").
func (m Mention) String() string {
	switch m.Kind {
	case MentionKindUser:
		return MentionUser(m.ID)
	case MentionKindRole:
		return MentionRole(m.ID)
	case MentionKindChannel:
		return MentionChannel(m.ID)
	case MentionKindCommand:
		return MentionCommand(m.Name, m.ID)
	case MentionKindEmoji:
		return MentionEmoji(m.Name, m.ID, m.Animated)
	case MentionKindTimestamp:
		return FormatTimestamp(m.Time, m.Style)
	case MentionKindEveryone:
		return MentionEveryone
	case MentionKindHere:
		return MentionHere
	}
	return ""
}

// errNotMention is ParseMention's error.
var errNotMention = errors.New("guildkit: not a mention")

// ParseMention parses s, which must be exactly one mention with nothing
// around it (a prefix command's argument "<@80351110224678912>"): a user,
// role, channel, command, emoji or timestamp mention, "@everyone" or
// "@here". Ids are decimal snowflakes; a timestamp is whole seconds with
// an optional style letter (t, T, d, D, f, F, R).
func ParseMention(s string) (Mention, error) {
	m, n := parseMentionAt(s)
	if n == 0 || n != len(s) {
		return Mention{}, errNotMention
	}
	return m, nil
}

// FindMentions returns the mentions in text, in order, each with its Raw
// markup and Index. Markup that does not parse (an id that is not a
// number, a style that is not one) is skipped, as the platform shows it as
// plain text. It says nothing of who is notified: that is the message's
// allowed mentions'.
func FindMentions(text string) []Mention {
	var out []Mention
	for i := 0; i < len(text); {
		j := strings.IndexAny(text[i:], "<@")
		if j < 0 {
			break
		}
		i += j
		m, n := parseMentionAt(text[i:])
		if n == 0 {
			i++
			continue
		}
		m.Index = i
		out = append(out, m)
		i += n
	}
	return out
}

// parseMentionAt parses the mention s starts with and returns it and its
// length, or a zero length when s starts with none.
func parseMentionAt(s string) (Mention, int) {
	switch {
	case strings.HasPrefix(s, MentionEveryone):
		return Mention{Kind: MentionKindEveryone, Raw: MentionEveryone}, len(MentionEveryone)
	case strings.HasPrefix(s, MentionHere):
		return Mention{Kind: MentionKindHere, Raw: MentionHere}, len(MentionHere)
	case len(s) < 3 || s[0] != '<':
		return Mention{}, 0
	}
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return Mention{}, 0
	}
	body, raw := s[1:end], s[:end+1]
	if strings.ContainsAny(body, "<\n") {
		return Mention{}, 0
	}
	m := Mention{Raw: raw}
	var idText string
	switch {
	case strings.HasPrefix(body, "@&"):
		m.Kind, idText = MentionKindRole, body[2:]
	case strings.HasPrefix(body, "@!"):
		m.Kind, idText = MentionKindUser, body[2:]
	case strings.HasPrefix(body, "@"):
		m.Kind, idText = MentionKindUser, body[1:]
	case strings.HasPrefix(body, "#"):
		m.Kind, idText = MentionKindChannel, body[1:]
	case strings.HasPrefix(body, "/"):
		name, id, ok := cutLast(body[1:])
		if !ok || !validCommandName(name) {
			return Mention{}, 0
		}
		m.Kind, m.Name, idText = MentionKindCommand, name, id
	case strings.HasPrefix(body, "t:"):
		return parseTimestampMention(m, body[2:])
	case strings.HasPrefix(body, ":"), strings.HasPrefix(body, "a:"):
		m.Animated = body[0] == 'a'
		name, id, ok := cutLast(body[strings.IndexByte(body, ':')+1:])
		if !ok || !validEmojiName(name) {
			return Mention{}, 0
		}
		m.Kind, m.Name, idText = MentionKindEmoji, name, id
	default:
		return Mention{}, 0
	}
	id, ok := parseDecimalID(idText)
	if !ok {
		return Mention{}, 0
	}
	m.ID = id
	return m, len(raw)
}

// cutLast splits "name:id" at its last colon.
func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// parseDecimalID parses a snowflake written as decimal digits only (no
// sign, no spaces), not zero: what strconv.ParseUint takes in base 10.
func parseDecimalID(s string) (Snowflake, bool) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		return 0, false
	}
	return Snowflake(v), true
}

// validCommandName accepts one to three space-separated words of 1-32
// characters, none holding a colon or markup.
func validCommandName(s string) bool {
	words := strings.Split(s, " ")
	if len(words) > 3 {
		return false
	}
	for _, w := range words {
		if w == "" || len([]rune(w)) > 32 || strings.ContainsAny(w, ":<>@#\t") {
			return false
		}
	}
	return true
}

// validEmojiName accepts 1-32 letters, digits and underscores.
func validEmojiName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// parseTimestampMention parses what follows "<t:" up to the ">":
// "1618953630" or "1618953630:R".
func parseTimestampMention(m Mention, body string) (Mention, int) {
	secText, style, hasStyle := strings.Cut(body, ":")
	if hasStyle {
		if len(style) != 1 || style[0] == 0 || !TimestampStyle(style[0]).Valid() {
			return Mention{}, 0
		}
		m.Style = TimestampStyle(style[0])
	}
	digits := strings.TrimPrefix(secText, "-")
	if digits == "" || len(digits) > 12 {
		return Mention{}, 0
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return Mention{}, 0
		}
	}
	sec, err := strconv.ParseInt(secText, 10, 64)
	if err != nil {
		return Mention{}, 0
	}
	m.Kind, m.Time = MentionKindTimestamp, time.Unix(sec, 0).UTC()
	return m, len(m.Raw)
}
