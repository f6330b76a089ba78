package guildkittest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

func copyOnboarding(o guildkit.Onboarding) guildkit.Onboarding {
	o.DefaultChannelIDs = slices.Clone(o.DefaultChannelIDs)
	o.Prompts = slices.Clone(o.Prompts)
	for i := range o.Prompts {
		o.Prompts[i].Options = slices.Clone(o.Prompts[i].Options)
	}
	return o
}

// Onboarding returns a guild's onboarding as the server holds it.
func (s *Server) Onboarding(guildID guildkit.Snowflake) guildkit.Onboarding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return shaped(copyOnboarding(s.mustGuild(guildID).settings.onboarding))
}

// getOnboarding: Get Guild Onboarding.
func (s *Server) getOnboarding(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	c.json(http.StatusOK, copyOnboarding(gs.settings.onboarding))
}

// Onboarding limits: enabling needs MinOnboardingDefaultChannels default
// channels of which MinOnboardingWritableChannels let @everyone send
// messages.
const (
	MinOnboardingDefaultChannels  = 7
	MinOnboardingWritableChannels = 5
)

// modifyOnboarding: Modify Guild Onboarding. Prompts and options without an
// id get one; the input emoji fields become an emoji object. With enabled
// true, the channels that count (the default channels; in advanced mode also
// the channels of the prompts' options) must be at least 7, and at least 5
// of them must let @everyone send messages (role permissions and the
// channel's @everyone overwrite).
func (s *Server) modifyOnboarding(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild|guildkit.PermissionManageRoles) {
		return
	}
	var p guildkit.GuildOnboardingModifyParams
	if !c.decode(&p) {
		return
	}
	problems := map[string]string{}
	for name, null := range map[string]bool{
		"prompts": p.Prompts.IsNull(), "default_channel_ids": p.DefaultChannelIDs.IsNull(),
		"enabled": p.Enabled.IsNull(), "mode": p.Mode.IsNull(),
	} {
		if null {
			problems[name] = "This field is required"
		}
	}
	o := copyOnboarding(gs.settings.onboarding)
	checkChannels := func(path string, ids []guildkit.Snowflake) {
		for i, id := range ids {
			if ch, ok := gs.channels[id]; !ok || ch.Type.IsThread() {
				problems[fmt.Sprintf("%s.%d", path, i)] = "Unknown channel"
			}
		}
	}
	if ids, ok := p.DefaultChannelIDs.Get(); ok {
		checkChannels("default_channel_ids", ids)
		o.DefaultChannelIDs = append([]guildkit.Snowflake{}, ids...)
	}
	if m, ok := p.Mode.Get(); ok {
		if m != guildkit.OnboardingDefault && m != guildkit.OnboardingAdvanced {
			problems["mode"] = "Value must be one of {0, 1}."
		}
		o.Mode = m
	}
	if e, ok := p.Enabled.Get(); ok {
		o.Enabled = e
	}
	if prompts, ok := p.Prompts.Get(); ok {
		o.Prompts = make([]guildkit.OnboardingPrompt, 0, len(prompts))
		for i, pp := range prompts {
			at := fmt.Sprintf("prompts.%d", i)
			if strings.TrimSpace(pp.Title) == "" {
				problems[at+".title"] = "This field is required"
			}
			if len(pp.Options) == 0 {
				problems[at+".options"] = "Must be at least 1 in length."
			}
			pr := guildkit.OnboardingPrompt{
				ID: pp.ID.Or(0), Type: pp.Type, Title: pp.Title, SingleSelect: pp.SingleSelect.Or(false),
				Required: pp.Required.Or(false), InOnboarding: pp.InOnboarding.Or(true),
				Options: make([]guildkit.OnboardingPromptOption, 0, len(pp.Options)),
			}
			switch id, sent := pp.ID.Get(); {
			case !sent:
				// The interface requires a prompt's id; the reference
				// platform refuses a prompt without one.
				problems[at+".id"] = "This field is required"
			case id == 0:
				// "0" (or any id the guild has not seen) asks for a new
				// prompt, as component id 0 asks for a fresh id.
				pr.ID = s.newID()
			}
			for j, po := range pp.Options {
				oat := fmt.Sprintf("%s.options.%d", at, j)
				opt := guildkit.OnboardingPromptOption{
					ID: po.ID.Or(0), ChannelIDs: po.ChannelIDs.Or([]guildkit.Snowflake{}),
					RoleIDs: po.RoleIDs.Or([]guildkit.Snowflake{}), Title: po.Title, Description: ptrOf(po.Description),
				}
				if opt.ID == 0 {
					opt.ID = s.newID()
				}
				checkChannels(oat+".channel_ids", opt.ChannelIDs)
				for k, r := range opt.RoleIDs {
					if _, ok := gs.roles[r]; !ok {
						problems[fmt.Sprintf("%s.role_ids.%d", oat, k)] = "Unknown role"
					}
				}
				if po.EmojiID.IsSet() || po.EmojiName.IsSet() {
					opt.Emoji = &guildkit.Emoji{ID: ptrOf(po.EmojiID), Name: ptrOf(po.EmojiName), Animated: ptrOf(po.EmojiAnimated)}
				}
				pr.Options = append(pr.Options, opt)
			}
			o.Prompts = append(o.Prompts, pr)
		}
	}
	if len(problems) == 0 && o.Enabled {
		total, writable := gs.onboardingChannels(&o)
		if total < MinOnboardingDefaultChannels || writable < MinOnboardingWritableChannels {
			problems["default_channel_ids"] = fmt.Sprintf(
				"Onboarding needs at least %d default channels, %d of them writable by @everyone; got %d, %d writable",
				MinOnboardingDefaultChannels, MinOnboardingWritableChannels, total, writable)
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.settings.onboarding = o
	c.json(http.StatusOK, copyOnboarding(o))
}

// onboardingChannels counts the distinct channels that count toward the
// onboarding constraints in o's mode, and those @everyone can send
// messages in.
func (gs *guildState) onboardingChannels(o *guildkit.Onboarding) (total, writable int) {
	ids := slices.Clone(o.DefaultChannelIDs)
	if o.Mode == guildkit.OnboardingAdvanced {
		for _, p := range o.Prompts {
			for _, opt := range p.Options {
				ids = append(ids, opt.ChannelIDs...)
			}
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		if ch, ok := gs.channels[id]; ok {
			total++
			if gs.everyoneCan(ch, guildkit.PermissionSendMessages) {
				writable++
			}
		}
	}
	return total, writable
}
