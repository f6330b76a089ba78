package guildkit

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Mentions and message formatting, the reference platform's markup
// (reference.mdx, "Message Formatting"). A mention written into a
// message's content is only text: whether it notifies (pings) is decided by
// the message's [AllowedMentions] and the sender's permissions.

// Mention returns the user's mention, "<@id>".
func (u *User) Mention() string { return MentionUser(u.ID) }

// Mention returns the member's mention, "<@id>", or "" when the member
// carries no user (the members of message events have none; the message's
// author is the user).
func (m *Member) Mention() string {
	if m.User == nil {
		return ""
	}
	return MentionUser(m.User.ID)
}

// Mention returns the role's mention, "<@&id>". The @everyone role (whose
// id is the guild's) is mentioned as the text "@everyone" instead, which
// this method cannot tell apart: use [MentionEveryone].
func (r *Role) Mention() string { return MentionRole(r.ID) }

// Mention returns the channel's mention, "<#id>", shown as a link to the
// channel. It never notifies anyone.
func (c *Channel) Mention() string { return MentionChannel(c.ID) }

// MentionEveryone is the text that mentions every member of the channel;
// [MentionHere] those of them online. Both notify only when the message's
// allowed mentions parse "everyone" and the sender has MENTION_EVERYONE.
const (
	MentionEveryone = "@everyone"
	MentionHere     = "@here"
)

// MentionUser returns the mention of the user with id, "<@id>".
func MentionUser(id Snowflake) string { return mention("<@", id, ">") }

// MentionRole returns the mention of the role with id, "<@&id>".
func MentionRole(id Snowflake) string { return mention("<@&", id, ">") }

// MentionChannel returns the mention of the channel with id, "<#id>".
func MentionChannel(id Snowflake) string { return mention("<#", id, ">") }

// MentionCommand returns the mention of an application command, shown as a
// link that fills the command in: name is the command's name, followed by
// its subcommand group and subcommand when they apply ("tag get"), and id
// the command's id: "</tag get:id>". [Command.Mention] does the same from
// a registered command.
func MentionCommand(name string, id Snowflake) string {
	return "</" + name + ":" + id.String() + ">"
}

// MentionEmoji returns the markup of a custom emoji, "<:name:id>", or
// "<a:name:id>" for an animated one.
func MentionEmoji(name string, id Snowflake, animated bool) string {
	if animated {
		return "<a:" + name + ":" + id.String() + ">"
	}
	return "<:" + name + ":" + id.String() + ">"
}

func mention(prefix string, id Snowflake, suffix string) string {
	var b [32]byte
	out := append(b[:0], prefix...)
	out = strconv.AppendUint(out, uint64(id), 10)
	return string(append(out, suffix...))
}

// TimestampStyle is how a timestamp in a message is shown, each reader
// seeing it in their own time zone and language. The zero style is the
// platform's default, [TimestampShortDateTime].
type TimestampStyle byte

// Timestamp styles, with how each shows 2021-04-20 16:20:30 in en-US.
const (
	TimestampDefault       TimestampStyle = 0   // as TimestampShortDateTime; written without a style
	TimestampShortTime     TimestampStyle = 't' // 4:20 PM
	TimestampLongTime      TimestampStyle = 'T' // 4:20:30 PM
	TimestampShortDate     TimestampStyle = 'd' // 04/20/2021
	TimestampLongDate      TimestampStyle = 'D' // April 20, 2021
	TimestampShortDateTime TimestampStyle = 'f' // April 20, 2021 4:20 PM
	TimestampLongDateTime  TimestampStyle = 'F' // Tuesday, April 20, 2021 4:20 PM
	TimestampRelative      TimestampStyle = 'R' // 2 months ago; in 3 hours
)

// Valid reports whether s is one of the styles above.
func (s TimestampStyle) Valid() bool {
	switch s {
	case TimestampDefault, TimestampShortTime, TimestampLongTime, TimestampShortDate, TimestampLongDate,
		TimestampShortDateTime, TimestampLongDateTime, TimestampRelative:
		return true
	}
	return false
}

// String returns the style's letter ("R"), "" for the default, or
// "TimestampStyle(n)" for a value that is no style.
func (s TimestampStyle) String() string {
	if s == TimestampDefault {
		return ""
	}
	if !s.Valid() {
		return "TimestampStyle(" + strconv.Itoa(int(s)) + ")"
	}
	return string(rune(s))
}

// FormatTimestamp returns the markup that shows t in style:
// "<t:1618953630:R>", or "<t:1618953630>" for [TimestampDefault]. The
// markup holds whole seconds; t's fraction is dropped (towards the past).
// A style that is not one of the constants is written as the default.
func FormatTimestamp(t time.Time, style TimestampStyle) string {
	var b [40]byte
	out := append(b[:0], "<t:"...)
	sec := t.Unix()
	out = strconv.AppendInt(out, sec, 10)
	if style != TimestampDefault && style.Valid() {
		out = append(out, ':', byte(style))
	}
	return string(append(out, '>'))
}

// markdownSpecial are the characters that start or end markdown anywhere
// in a line: emphasis, strike-through, code, spoilers, masked links and
// the backslash itself.
const markdownSpecial = "\\*_~`|[]()"

// EscapeMarkdown returns s with every character that could format it
// escaped by a backslash, so that user-provided text is shown as typed:
// emphasis (* _), strike-through (~), code (`), spoilers (|), masked links
// ([ ] ( )), and at the start of a line block quotes (>), headings (#) and
// list markers (- and "1."). The platform shows a backslash before any
// punctuation as nothing, so the text reads the same. Links (http:// and
// https:// up to the next space) are left alone, as an escape inside one
// would change where it points. Mentions are not touched: see
// [EscapeMentions].
func EscapeMarkdown(s string) string {
	if !strings.ContainsAny(s, markdownSpecial+">#-.") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	lineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		if n := linkLen(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			lineStart = false
			continue
		}
		switch {
		case c == '\n':
			lineStart = true
			b.WriteByte(c)
			i++
			continue
		case lineStart && (c == ' ' || c == '\t'):
			b.WriteByte(c)
			i++
			continue
		case lineStart && (c == '>' || c == '#' || c == '-'):
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		case lineStart && c >= '0' && c <= '9':
			// "1." starts an ordered list: escape its dot.
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString(s[i:j])
			if j < len(s) && s[j] == '.' {
				b.WriteString("\\.")
				j++
			}
			i = j
		case strings.IndexByte(markdownSpecial, c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			i += n
		}
		lineStart = false
	}
	return b.String()
}

// linkLen returns the length of the link s starts with, 0 if none.
func linkLen(s string) int {
	var rest string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest = s[len("https://"):]
	case strings.HasPrefix(s, "http://"):
		rest = s[len("http://"):]
	default:
		return 0
	}
	end := strings.IndexAny(rest, " \t\n\r")
	if end < 0 {
		end = len(rest)
	}
	if end == 0 {
		return 0
	}
	return len(s) - len(rest) + end
}

// zeroWidthSpace breaks a mention without changing how the text reads.
const zeroWidthSpace = "\u200b"

// EscapeMentions returns s with every mention that could notify broken by
// a zero-width space after its "@": "@everyone", "@here", "<@id>",
// "<@!id>" and "<@&id>" read the same but mention no one. Channel,
// command, emoji and timestamp markup is left as it is. Escaping is for
// showing text; to send user-provided text without pings, prefer
// AllowedMentions with an empty, non-nil Parse, which the platform
// enforces whatever the text holds.
func EscapeMentions(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 3*4)
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || !mentionAfterAt(s[i+1:], i > 0 && s[i-1] == '<') {
			continue
		}
		b.WriteString(s[last : i+1])
		b.WriteString(zeroWidthSpace)
		last = i + 1
	}
	b.WriteString(s[last:])
	return b.String()
}

// mentionAfterAt reports whether rest, what follows an "@", makes a
// mention that notifies: "everyone" or "here", or, after a "<", an id with
// an optional "!" or "&" and a closing ">".
func mentionAfterAt(rest string, inBrackets bool) bool {
	if strings.HasPrefix(rest, "everyone") || strings.HasPrefix(rest, "here") {
		return true
	}
	if !inBrackets {
		return false
	}
	if rest != "" && (rest[0] == '!' || rest[0] == '&') {
		rest = rest[1:]
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && n < len(rest) && rest[n] == '>'
}
