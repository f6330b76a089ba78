package guildkittest

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

func widgetSettings(g *guildkit.Guild) guildkit.GuildWidgetSettings {
	ws := guildkit.GuildWidgetSettings{Enabled: g.WidgetEnabled != nil && *g.WidgetEnabled}
	if id, ok := g.WidgetChannelID.Get(); ok {
		ws.ChannelID = &id
	}
	return ws
}

// getWidgetSettings: Get Guild Widget Settings.
func (s *Server) getWidgetSettings(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	c.json(http.StatusOK, widgetSettings(&gs.guild))
}

// modifyWidget: Modify Guild Widget; emits GUILD_UPDATE.
func (s *Server) modifyWidget(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildWidgetModifyParams
	if !c.decode(&p) {
		return
	}
	problems := map[string]string{}
	if p.Enabled.IsNull() {
		problems["enabled"] = "This field is required"
	}
	if id, ok := p.ChannelID.Get(); ok {
		if ch, ok := gs.channels[id]; !ok || ch.Type.IsThread() {
			problems["channel_id"] = "Unknown channel"
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	if e, ok := p.Enabled.Get(); ok {
		gs.guild.WidgetEnabled = &e
	}
	if !p.ChannelID.IsZero() {
		gs.guild.WidgetChannelID = p.ChannelID
	}
	s.emit(guildkit.EventGuildUpdate, gs.guild.ID, s.guildJSON(gs))
	c.json(http.StatusOK, widgetSettings(&gs.guild))
}

// widgetGuild resolves the guild of a widget route, which needs no
// membership: 404 for an unknown guild, 403 Widget Disabled when the widget
// is off.
func (c *call) widgetGuild() (*guildState, bool) {
	gs, ok := c.guild()
	if !ok {
		return nil, false
	}
	if gs.guild.WidgetEnabled == nil || !*gs.guild.WidgetEnabled {
		c.error(http.StatusForbidden, guildkit.CodeWidgetDisabled, "Widget Disabled")
		return nil, false
	}
	return gs, true
}

// MaxWidgetMembers is how many members the widget lists at most.
const MaxWidgetMembers = 100

// getWidget: Get Guild Widget. It needs no authentication. The channels are
// the voice and stage channels @everyone can view; the members are the
// online ones, by user id, anonymised (id is the index, discriminator
// "0000", no avatar). With a widget channel, the widget's invite is made
// when it does not exist (INVITE_CREATE) and its URL is
// URL + "/invite/" + code.
func (s *Server) getWidget(c *call) {
	gs, ok := c.widgetGuild()
	if !ok {
		return
	}
	g := &gs.guild
	w := guildkit.GuildWidget{ID: g.ID, Name: g.Name, Channels: []guildkit.WidgetChannel{}, Members: []guildkit.WidgetMember{}}
	for _, ch := range gs.sortedChannels() {
		if (ch.Type == guildkit.ChannelTypeGuildVoice || ch.Type == guildkit.ChannelTypeGuildStageVoice) &&
			gs.everyoneCan(&ch, guildkit.PermissionViewChannel) {
			w.Channels = append(w.Channels, guildkit.WidgetChannel{ID: ch.ID, Name: ch.Name, Position: ch.Position})
		}
	}
	var online []*memberState
	for _, ms := range gs.members {
		if ms.online {
			online = append(online, ms)
		}
	}
	slices.SortFunc(online, func(a, b *memberState) int { return cmp.Compare(a.member.User.ID, b.member.User.ID) })
	w.PresenceCount = len(online)
	for i, ms := range online[:min(len(online), MaxWidgetMembers)] {
		name := ms.member.User.Username
		if ms.member.Nick != nil {
			name = *ms.member.Nick
		}
		w.Members = append(w.Members, guildkit.WidgetMember{
			ID: fmt.Sprint(i), Username: name, Discriminator: "0000", Status: "online",
			AvatarURL: fmt.Sprintf("%s/widget-avatars/%d.png", s.URL, i),
		})
	}
	if chID, ok := g.WidgetChannelID.Get(); ok {
		if _, exists := gs.channels[chID]; exists {
			is, ok := s.invites[gs.settings.widgetInvite]
			if !ok || is.channelID != chID {
				inv := s.addInviteLocked(gs, chID, 0, guildkit.Invite{})
				gs.settings.widgetInvite = inv.Code
				s.emit(guildkit.EventInviteCreate, g.ID, inv)
			}
			url := s.URL + "/invite/" + gs.settings.widgetInvite
			w.InstantInvite = &url
		}
	}
	c.json(http.StatusOK, w)
}

// widgetImageStyle is how the server draws one widget image style: its
// size and colours.
type widgetImageStyle struct {
	w, h       int
	background color.RGBA
	accent     color.RGBA
	icon       bool // draws a square for the guild icon
}

var widgetImageStyles = map[guildkit.WidgetStyle]widgetImageStyle{
	guildkit.WidgetStyleShield:  {w: 120, h: 20, background: color.RGBA{0x55, 0x55, 0x55, 0xff}, accent: color.RGBA{0x72, 0x89, 0xda, 0xff}},
	guildkit.WidgetStyleBanner1: {w: 320, h: 76, background: color.RGBA{0x72, 0x89, 0xda, 0xff}, accent: color.RGBA{0xff, 0xff, 0xff, 0xff}, icon: true},
	guildkit.WidgetStyleBanner2: {w: 320, h: 82, background: color.RGBA{0x2c, 0x2f, 0x33, 0xff}, accent: color.RGBA{0x72, 0x89, 0xda, 0xff}, icon: true},
	guildkit.WidgetStyleBanner3: {w: 320, h: 100, background: color.RGBA{0x23, 0x27, 0x2a, 0xff}, accent: color.RGBA{0x43, 0xb5, 0x81, 0xff}, icon: true},
	guildkit.WidgetStyleBanner4: {w: 320, h: 160, background: color.RGBA{0x99, 0xaa, 0xb5, 0xff}, accent: color.RGBA{0x2c, 0x2f, 0x33, 0xff}, icon: true},
}

// getWidgetImage: Get Guild Widget Image, with no authentication. It draws
// a PNG whose size and colours depend on the style (shield 120x20, banner1
// 320x76, banner2 320x82, banner3 320x100, banner4 320x160), with one small
// block per online member (up to 20) and, on banners, a square for the
// icon.
func (s *Server) getWidgetImage(c *call) {
	gs, ok := c.widgetGuild()
	if !ok {
		return
	}
	style := guildkit.WidgetStyle(c.r.URL.Query().Get("style"))
	if style == "" {
		style = guildkit.WidgetStyleShield
	}
	st, ok := widgetImageStyles[style]
	if !ok {
		c.formError(map[string]string{"style": "Value must be one of ('shield', 'banner1', 'banner2', 'banner3', 'banner4')."})
		return
	}
	_, online := gs.counts()
	img := image.NewRGBA(image.Rect(0, 0, st.w, st.h))
	draw.Draw(img, img.Bounds(), &image.Uniform{st.background}, image.Point{}, draw.Src)
	x := 4
	if st.icon {
		side := st.h - 8
		draw.Draw(img, image.Rect(4, 4, 4+side, 4+side), &image.Uniform{st.accent}, image.Point{}, draw.Src)
		x += side + 4
	}
	for i := range min(online, 20) {
		bx := x + i*6
		draw.Draw(img, image.Rect(bx, st.h-8, bx+4, st.h-4), &image.Uniform{st.accent}, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.error(http.StatusInternalServerError, guildkit.CodeGeneral, err.Error())
		return
	}
	c.status = http.StatusOK
	c.w.Header().Set("Content-Type", "image/png")
	c.w.Header().Set("Content-Length", fmt.Sprint(buf.Len()))
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(buf.Bytes())
}
