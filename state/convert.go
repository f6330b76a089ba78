package state

import (
	"time"

	"github.com/seed012df1e9/guildkit"
)

// The conversions from the SDK's objects (as REST and the gateway decode
// them) into the cache's values. Every store converts through these, so
// that what a kind holds does not depend on where it is kept.

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func optStr(o guildkit.Opt[string]) string { v, _ := o.Get(); return v }

func id(p *Snowflake) Snowflake {
	if p == nil {
		return 0
	}
	return *p
}

func num(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func numOr(p *int, or int) int {
	if p == nil {
		return or
	}
	return *p
}

func flag(p *bool) bool { return p != nil && *p }

func when(p *time.Time) time.Time {
	if p == nil {
		return time.Time{}
	}
	return *p
}

// UserOf returns the cache's copy of u.
func UserOf(u *guildkit.User) User {
	v := User{
		ID:            u.ID,
		Username:      u.Username,
		GlobalName:    optStr(u.GlobalName),
		Discriminator: u.Discriminator,
		Avatar:        str(u.Avatar),
		Banner:        optStr(u.Banner),
		AccentColor:   -1,
		PublicFlags:   num(u.PublicFlags),
		Bot:           u.Bot,
		System:        u.System,
	}
	if c, ok := u.AccentColor.Get(); ok {
		v.AccentColor = c
	}
	if d, ok := u.AvatarDecorationData.Get(); ok {
		v.AvatarDecoration = AvatarDecoration{Asset: d.Asset, SKUID: d.SKUID}
	}
	return v
}

// MemberOf returns the cache's copy of m, a member of guildID, whose user
// is m.User or, when m has none (a message's member), user.
func MemberOf(guildID Snowflake, m *guildkit.Member, user *guildkit.User) Member {
	v := Member{
		GuildID:                    guildID,
		Nick:                       str(m.Nick),
		Avatar:                     str(m.Avatar),
		Banner:                     str(m.Banner),
		Roles:                      NewIDs(m.Roles...),
		JoinedAt:                   when(m.JoinedAt),
		PremiumSince:               when(m.PremiumSince),
		CommunicationDisabledUntil: when(m.CommunicationDisabledUntil),
		Flags:                      m.Flags,
		Deaf:                       m.Deaf,
		Mute:                       m.Mute,
		Pending:                    flag(m.Pending),
	}
	if m.User != nil {
		user = m.User
	}
	if user != nil {
		v.User = UserOf(user)
	}
	if d := m.AvatarDecorationData; d != nil {
		v.AvatarDecoration = AvatarDecoration{Asset: d.Asset, SKUID: d.SKUID}
	}
	return v
}

// GuildOf returns the cache's copy of g's own fields.
func GuildOf(g *guildkit.Guild) Guild {
	v := Guild{
		ID:                          g.ID,
		Name:                        g.Name,
		OwnerID:                     g.OwnerID,
		Icon:                        str(g.Icon),
		Splash:                      str(g.Splash),
		DiscoverySplash:             str(g.DiscoverySplash),
		Banner:                      str(g.Banner),
		Description:                 str(g.Description),
		VanityURLCode:               str(g.VanityURLCode),
		PreferredLocale:             g.PreferredLocale,
		Features:                    ListOf(g.Features...),
		AFKChannelID:                id(g.AFKChannelID),
		AFKTimeout:                  g.AFKTimeout,
		SystemChannelID:             id(g.SystemChannelID),
		SystemChannelFlags:          g.SystemChannelFlags,
		RulesChannelID:              id(g.RulesChannelID),
		PublicUpdatesChannelID:      id(g.PublicUpdatesChannelID),
		SafetyAlertsChannelID:       id(g.SafetyAlertsChannelID),
		ApplicationID:               id(g.ApplicationID),
		VerificationLevel:           g.VerificationLevel,
		DefaultMessageNotifications: g.DefaultMessageNotifications,
		ExplicitContentFilter:       g.ExplicitContentFilter,
		MFALevel:                    g.MFALevel,
		NSFWLevel:                   g.NSFWLevel,
		PremiumTier:                 g.PremiumTier,
		PremiumSubscriptionCount:    num(g.PremiumSubscriptionCount),
		PremiumProgressBarEnabled:   g.PremiumProgressBarEnabled,
	}
	return v
}

// ChannelOf returns the cache's copy of c.
func ChannelOf(c *guildkit.Channel) Channel {
	v := Channel{
		ID:               c.ID,
		GuildID:          c.GuildID,
		Type:             c.Type,
		Name:             c.Name,
		Position:         c.Position,
		Overwrites:       ListOf(c.PermissionOverwrites...),
		Topic:            optStr(c.Topic),
		NSFW:             flag(c.NSFW),
		Bitrate:          num(c.Bitrate),
		UserLimit:        num(c.UserLimit),
		RateLimitPerUser: num(c.RateLimitPerUser),
		RTCRegion:        optStr(c.RTCRegion),
		Flags:            num(c.Flags),
		OwnerID:          c.OwnerID,
		MessageCount:     num(c.MessageCount),
		MemberCount:      num(c.MemberCount),
		AppliedTags:      NewIDs(c.AppliedTags...),
	}
	if p, ok := c.ParentID.Get(); ok {
		v.ParentID = p
	}
	if t, ok := c.LastPinTimestamp.Get(); ok {
		v.LastPinTimestamp = t
	}
	if m := c.ThreadMetadata; m != nil {
		v.Archived, v.Locked, v.Invitable = m.Archived, m.Locked, flag(m.Invitable)
		v.AutoArchiveDuration, v.ArchiveTimestamp = m.AutoArchiveDuration, m.ArchiveTimestamp
	}
	return v
}

// RoleOf returns the cache's copy of r, a role of guildID.
func RoleOf(guildID Snowflake, r *guildkit.Role) Role {
	v := Role{
		ID:             r.ID,
		GuildID:        guildID,
		Name:           r.Name,
		Color:          r.Colors.PrimaryColor,
		SecondaryColor: numOr(r.Colors.SecondaryColor, -1),
		TertiaryColor:  numOr(r.Colors.TertiaryColor, -1),
		Hoist:          r.Hoist,
		Managed:        r.Managed,
		Mentionable:    r.Mentionable,
		Icon:           optStr(r.Icon),
		UnicodeEmoji:   optStr(r.UnicodeEmoji),
		Position:       r.Position,
		Permissions:    r.Permissions,
		Flags:          r.Flags,
	}
	if v.Color == 0 {
		v.Color = r.Color
	}
	if t := r.Tags; t != nil {
		v.BotID, v.IntegrationID = id(t.BotID), id(t.IntegrationID)
	}
	return v
}

// EmojiOf returns the cache's copy of e, a custom emoji of guildID.
func EmojiOf(guildID Snowflake, e *guildkit.Emoji) Emoji {
	v := Emoji{
		ID:            id(e.ID),
		GuildID:       guildID,
		Name:          str(e.Name),
		Roles:         NewIDs(e.Roles...),
		RequireColons: flag(e.RequireColons),
		Managed:       flag(e.Managed),
		Animated:      flag(e.Animated),
		Available:     e.Available == nil || *e.Available,
	}
	if e.User != nil {
		v.UserID = e.User.ID
	}
	return v
}

// StickerOf returns the cache's copy of s, a sticker of guildID.
func StickerOf(guildID Snowflake, s *guildkit.Sticker) Sticker {
	v := Sticker{
		ID:          s.ID,
		GuildID:     guildID,
		Name:        s.Name,
		Description: str(s.Description),
		Tags:        s.Tags,
		Type:        s.Type,
		FormatType:  s.FormatType,
		Available:   s.Available == nil || *s.Available,
		SortValue:   num(s.SortValue),
	}
	if s.User != nil {
		v.UserID = s.User.ID
	}
	return v
}

// PresenceOf returns the cache's copy of p, a presence in guildID.
func PresenceOf(guildID Snowflake, p *guildkit.Presence) Presence {
	v := Presence{GuildID: guildID, UserID: p.User.ID, Status: p.Status, ClientStatus: p.ClientStatus}
	if len(p.Activities) > 0 {
		as := make([]Activity, len(p.Activities))
		for i := range p.Activities {
			a := &p.Activities[i]
			as[i] = Activity{Name: a.Name, Type: a.Type, URL: optStr(a.URL), State: optStr(a.State),
				Details: optStr(a.Details), ApplicationID: id(a.ApplicationID)}
			if t := a.Timestamps; t != nil {
				as[i].Start, as[i].End = t.Start, t.End
			}
			if e, ok := a.Emoji.Get(); ok {
				as[i].EmojiName, as[i].EmojiID = e.Name, id(e.ID)
			}
		}
		v.Activities = List[Activity]{s: as}
	}
	return v
}

// VoiceStateOf returns the cache's copy of s, a voice state in guildID.
func VoiceStateOf(guildID Snowflake, s *guildkit.VoiceState) VoiceState {
	return VoiceState{
		GuildID:                 guildID,
		UserID:                  s.UserID,
		ChannelID:               id(s.ChannelID),
		SessionID:               s.SessionID,
		Deaf:                    s.Deaf,
		Mute:                    s.Mute,
		SelfDeaf:                s.SelfDeaf,
		SelfMute:                s.SelfMute,
		SelfStream:              flag(s.SelfStream),
		SelfVideo:               s.SelfVideo,
		Suppress:                s.Suppress,
		RequestToSpeakTimestamp: when(s.RequestToSpeakTimestamp),
	}
}
