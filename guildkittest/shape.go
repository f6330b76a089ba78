package guildkittest

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

// Answer shapes.
//
// The server stores and answers with guildkit's own types. Those types
// encode a field the reference platform always sends whenever it is set,
// and a field it always sends whatever its value with a plain or always-
// encoded tag (a message's flags and components, a role's flags). What the
// platform always sends but guildkit's types rightly leave optional (a
// user's public_flags, a guild's max_members, a channel's topic, which the
// same types must leave out of a request or of another kind of object) the
// server fills in just before it answers: [fillShapes] walks the answer and
// gives every user, member, role, channel, guild, message, emoji and
// application in it the platform's full shape, the defaults below. The
// interface's documents do not show these objects in full; the shapes are
// the reference platform's (v10), and testdata/answers in the module root
// holds one golden answer per operation that a test compares field by
// field.

// shaped returns a copy of v as the server answers it, the reference
// platform's fields filled in. The copy is deep (through JSON and back), so
// the server's stored objects never change by being answered: what it saves
// and what its accessors return stay what it was told.
func shaped[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	walkShapes(reflect.ValueOf(&out), 0)
	return out
}

// withShapes is shaped for a value of any type, about to be encoded.
func withShapes(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	p := reflect.New(reflect.TypeOf(v))
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		return v
	}
	walkShapes(p, 0)
	return p.Interface()
}

func walkShapes(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkShapes(v.Elem(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkShapes(v.Index(i), depth+1)
		}
	case reflect.Struct:
		if !v.CanAddr() {
			return // reached through a map: nothing of interest lives there
		}
		fill(v.Addr().Interface())
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkShapes(v.Field(i), depth+1)
			}
		}
	}
}

func fill(p any) {
	zero := 0
	switch o := p.(type) {
	case *guildkit.User:
		if o.Discriminator == "" {
			o.Discriminator = "0"
		}
		if o.GlobalName.IsZero() {
			o.GlobalName = guildkit.Null[string]()
		}
		if o.PublicFlags == nil {
			o.PublicFlags = &zero
		}
		if o.Flags == nil {
			o.Flags = &zero
		}
		if o.AvatarDecorationData.IsZero() {
			o.AvatarDecorationData = guildkit.Null[guildkit.AvatarDecorationData]()
		}
		if o.PrimaryGuild.IsZero() {
			o.PrimaryGuild = guildkit.Null[guildkit.PrimaryGuild]()
		}
		if o.Banner.IsZero() {
			o.Banner = guildkit.Null[string]()
		}
		if o.AccentColor.IsZero() {
			o.AccentColor = guildkit.Null[int]()
		}
	case *guildkit.Member:
		if o.Pending == nil {
			f := false
			o.Pending = &f
		}
		if o.Roles == nil {
			o.Roles = []guildkit.Snowflake{}
		}
	case *guildkit.Role:
		if o.Icon.IsZero() {
			o.Icon = guildkit.Null[string]()
		}
		if o.UnicodeEmoji.IsZero() {
			o.UnicodeEmoji = guildkit.Null[string]()
		}
	case *guildkit.Channel:
		fillChannel(o)
	case *guildkit.Guild:
		fillGuild(o)
	case *guildkit.Message:
		// The reference platform numbers the components of every message,
		// Components V2 or legacy, from 1 ("generated sequentially if left
		// empty"): a legacy message's components carry ids 1..n too, not
		// the 0 one line of the components document mentions.
		components.AssignIDs(o.Components...)
		resolveMedia(o.ID, o.Components, o.Attachments)
		if o.Mentions == nil {
			o.Mentions = []guildkit.User{}
		}
		if o.MentionRoles == nil {
			o.MentionRoles = []guildkit.Snowflake{}
		}
		if o.Attachments == nil {
			o.Attachments = []guildkit.Attachment{}
		}
		if o.Embeds == nil {
			o.Embeds = []guildkit.Embed{}
		}
	case *components.Separator:
		// The platform answers with a separator's defaults filled in.
		if o.Divider.IsZero() {
			o.Divider = components.Some(true)
		}
		if o.Spacing == 0 {
			o.Spacing = components.SpacingSmall
		}
	case *components.Container:
		// accent_color is always in the answer, null when none was set.
		if o.AccentColor.IsZero() {
			o.AccentColor = components.Null[int]()
		}
	case *components.Thumbnail:
		if o.Description.IsZero() {
			o.Description = components.Null[string]()
		}
	case *components.MediaGalleryItem:
		if o.Description.IsZero() {
			o.Description = components.Null[string]()
		}
	case *guildkit.Emoji:
		if o.Animated == nil {
			f := false
			o.Animated = &f
		}
	case *guildkit.PartialGuild:
		if o.PremiumSubscriptionCount == nil {
			o.PremiumSubscriptionCount = &zero
		}
		if o.Features == nil {
			o.Features = []guildkit.GuildFeature{}
		}
	case *guildkit.PartialApplication:
		if o.Type.IsZero() {
			o.Type = guildkit.Null[int]()
		}
		if o.Flags == nil {
			o.Flags = &zero
		}
		if o.FlagsNew == nil {
			// The flags again as a decimal string, as the reference
			// platform sends beside flags.
			v := strconv.Itoa(*o.Flags)
			o.FlagsNew = &v
		}
	case *guildkit.OnboardingPromptOption:
		// The reference platform answers an option's description as a
		// string, "" when none was given.
		if o.Description == nil {
			empty := ""
			o.Description = &empty
		}
	}
}

// nullable returns the value p points at, or Null when p is nil.
func nullable[T any](p *T) guildkit.Opt[T] {
	if p == nil {
		return guildkit.Null[T]()
	}
	return guildkit.Some(*p)
}

func fillChannel(ch *guildkit.Channel) {
	zero := 0
	if ch.Flags == nil {
		ch.Flags = &zero
	}
	if ch.Type.IsThread() {
		if ch.MessageCount == nil {
			ch.MessageCount = &zero
		}
		if ch.MemberCount == nil {
			ch.MemberCount = &zero
		}
		if ch.TotalMessageSent == nil {
			n := *ch.MessageCount
			ch.TotalMessageSent = &n
		}
		if ch.RateLimitPerUser == nil {
			ch.RateLimitPerUser = &zero
		}
		if ch.LastMessageID.IsZero() {
			ch.LastMessageID = guildkit.Null[guildkit.Snowflake]()
		}
		return
	}
	if ch.ParentID.IsZero() {
		ch.ParentID = guildkit.Null[guildkit.Snowflake]()
	}
	if ch.PermissionOverwrites == nil {
		ch.PermissionOverwrites = []guildkit.PermissionOverwrite{}
	}
	switch ch.Type {
	case guildkit.ChannelTypeGuildText, guildkit.ChannelTypeGuildAnnouncement, guildkit.ChannelTypeGuildForum, guildkit.ChannelTypeGuildMedia:
		if ch.Topic.IsZero() {
			ch.Topic = guildkit.Null[string]()
		}
		if ch.NSFW == nil {
			f := false
			ch.NSFW = &f
		}
		if ch.RateLimitPerUser == nil {
			ch.RateLimitPerUser = &zero
		}
		if ch.LastMessageID.IsZero() {
			ch.LastMessageID = guildkit.Null[guildkit.Snowflake]()
		}
		if ch.DefaultThreadRateLimitPerUser == nil {
			ch.DefaultThreadRateLimitPerUser = &zero
		}
	case guildkit.ChannelTypeGuildVoice, guildkit.ChannelTypeGuildStageVoice:
		if ch.NSFW == nil {
			f := false
			ch.NSFW = &f
		}
		if ch.RateLimitPerUser == nil {
			ch.RateLimitPerUser = &zero
		}
		if ch.RTCRegion.IsZero() {
			ch.RTCRegion = guildkit.Null[string]()
		}
		if ch.LastMessageID.IsZero() {
			ch.LastMessageID = guildkit.Null[guildkit.Snowflake]()
		}
	}
}

func fillGuild(g *guildkit.Guild) {
	n := func(v int) *int { return &v }
	if v, ok := g.Region.Get(); !ok || v == "" {
		// The field is deprecated; the reference platform still sends a
		// string, "deprecated" for a guild that never chose a region.
		g.Region = guildkit.Some("deprecated")
	}
	if g.WidgetEnabled == nil {
		f := false
		g.WidgetEnabled = &f
	}
	if g.WidgetChannelID.IsZero() {
		g.WidgetChannelID = guildkit.Null[guildkit.Snowflake]()
	}
	if g.MaxPresences.IsZero() {
		g.MaxPresences = guildkit.Null[int]()
	}
	if g.MaxMembers == nil {
		g.MaxMembers = n(500000)
	}
	if g.MaxVideoChannelUsers == nil {
		g.MaxVideoChannelUsers = n(25)
	}
	if g.MaxStageVideoChannelUsers == nil {
		g.MaxStageVideoChannelUsers = n(50)
	}
	if g.PremiumSubscriptionCount == nil {
		g.PremiumSubscriptionCount = n(0)
	}
	if g.HomeHeader.IsZero() {
		g.HomeHeader = guildkit.Null[string]()
	}
	if g.Stickers == nil {
		g.Stickers = []guildkit.Sticker{}
	}
	if g.Emojis == nil {
		g.Emojis = []guildkit.Emoji{}
	}
}
