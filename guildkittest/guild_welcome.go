package guildkittest

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

func copyWelcome(w guildkit.WelcomeScreen) guildkit.WelcomeScreen {
	w.WelcomeChannels = slices.Clone(w.WelcomeChannels)
	return w
}

// WelcomeScreen returns a guild's welcome screen and whether it is enabled
// (the WELCOME_SCREEN_ENABLED feature).
func (s *Server) WelcomeScreen(guildID guildkit.Snowflake) (guildkit.WelcomeScreen, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	return shaped(copyWelcome(gs.settings.welcome)), gs.guild.HasFeature(guildkit.FeatureWelcomeScreenEnabled)
}

// getWelcomeScreen: Get Guild Welcome Screen; MANAGE_GUILD while it is not
// enabled.
func (s *Server) getWelcomeScreen(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	if !gs.guild.HasFeature(guildkit.FeatureWelcomeScreenEnabled) && !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	c.json(http.StatusOK, copyWelcome(gs.settings.welcome))
}

// modifyWelcomeScreen: Modify Guild Welcome Screen. enabled toggles the
// WELCOME_SCREEN_ENABLED feature; when it changes, GUILD_UPDATE is emitted.
func (s *Server) modifyWelcomeScreen(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildWelcomeScreenModifyParams
	if !c.decode(&p) {
		return
	}
	problems := map[string]string{}
	w := copyWelcome(gs.settings.welcome)
	if !p.WelcomeChannels.IsZero() {
		chs, _ := p.WelcomeChannels.Get()
		if len(chs) > guildkit.MaxWelcomeChannels {
			problems["welcome_channels"] = "Must be 5 or fewer in length."
		}
		for i, wc := range chs {
			if ch, ok := gs.channels[wc.ChannelID]; !ok || ch.Type.IsThread() {
				problems[fmt.Sprintf("welcome_channels.%d.channel_id", i)] = "Unknown channel"
			}
		}
		w.WelcomeChannels = append([]guildkit.WelcomeChannel{}, chs...)
	}
	if !p.Description.IsZero() {
		w.Description = ptrOf(p.Description)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.settings.welcome = w
	if !p.Enabled.IsZero() {
		on := p.Enabled.Or(false)
		if on != gs.guild.HasFeature(guildkit.FeatureWelcomeScreenEnabled) {
			if on {
				gs.guild.Features = append(gs.guild.Features, guildkit.FeatureWelcomeScreenEnabled)
			} else {
				gs.guild.Features = slices.DeleteFunc(slices.Clone(gs.guild.Features), func(f guildkit.GuildFeature) bool {
					return f == guildkit.FeatureWelcomeScreenEnabled
				})
			}
			s.emit(guildkit.EventGuildUpdate, gs.guild.ID, s.guildJSON(gs))
		}
	}
	c.json(http.StatusOK, copyWelcome(w))
}
