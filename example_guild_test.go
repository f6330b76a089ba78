package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"image/png"
	"log"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func ExampleGuildService_Modify() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers", Description: ptr("old text")})
	client := srv.Client()
	ctx := context.Background()

	guild, err := client.Guilds.Modify(ctx, g.ID, &guildkit.GuildModifyParams{
		Name:        guildkit.Some("Gopher Guild"),
		AFKTimeout:  guildkit.Some(900),
		Description: guildkit.Null[string](), // clear it
		Features:    guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureInvitesDisabled}),
	}, guildkit.WithReason("tidy up"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(guild.Name, guild.AFKTimeout, guild.Description == nil, guild.Features)
	fmt.Println(srv.EventsNamed(guildkit.EventGuildUpdate)[0].Name)

	// Broken rules are reported before anything is sent.
	_, err = client.Guilds.Modify(ctx, g.ID, &guildkit.GuildModifyParams{
		Name:       guildkit.Some("x"),
		AFKTimeout: guildkit.Some(120),
	})
	var ve *guildkit.ValidationError
	fmt.Println(errors.As(err, &ve), len(ve.Problems))
	fmt.Println(ve.Problems[0])
	// Output:
	// Gopher Guild 900 true [INVITES_DISABLED]
	// GUILD_UPDATE
	// true 2
	// name: 2-100 characters (whitespace trimmed), got 1
}

func ExampleChannelService_Create() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{PremiumTier: guildkit.PremiumTier2})
	client := srv.Client()
	ctx := context.Background()

	voice, err := client.Channels.Create(ctx, g.ID, &guildkit.ChannelCreateParams{
		Name:      "Pairing",
		Type:      guildkit.Some(guildkit.ChannelTypeGuildVoice),
		Bitrate:   guildkit.Some(256000), // tier 2's maximum
		UserLimit: guildkit.Some(4),
		RTCRegion: guildkit.Null[string](), // automatic
	}, guildkit.WithReason("pairing sessions"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(voice.Name, voice.Type, *voice.Bitrate, *voice.UserLimit, voice.RTCRegion.IsNull())

	// A topic does not apply to a voice channel.
	_, err = client.Channels.Create(ctx, g.ID, &guildkit.ChannelCreateParams{
		Name:  "Pairing 2",
		Type:  guildkit.Some(guildkit.ChannelTypeGuildVoice),
		Topic: guildkit.Some("pairs"),
	})
	fmt.Println(err)

	chs, _ := client.Channels.List(ctx, g.ID)
	fmt.Println(len(chs), len(srv.EventsNamed(guildkit.EventChannelCreate)))
	// Output:
	// Pairing GUILD_VOICE 256000 4 true
	// guildkit: invalid request: topic: does not apply to a GUILD_VOICE channel
	// 1 1
}

func ExampleChannelService_ModifyPositions() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	cat := srv.AddChannel(g.ID, guildkit.Channel{Name: "Projects", Type: guildkit.ChannelTypeGuildCategory})
	a := srv.AddChannel(g.ID, guildkit.Channel{Name: "alpha", Position: 1})
	b := srv.AddChannel(g.ID, guildkit.Channel{Name: "beta", Position: 2})

	err := srv.Client().Channels.ModifyPositions(context.Background(), g.ID, []guildkit.ChannelPositionParams{
		{ID: b.ID, Position: guildkit.Some(0), ParentID: guildkit.Some(cat.ID), LockPermissions: guildkit.Some(true)},
		{ID: a.ID, Position: guildkit.Some(5)},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, ch := range srv.Channels(g.ID) {
		fmt.Println(ch.Position, ch.Name)
	}
	fmt.Println(len(srv.EventsNamed(guildkit.EventChannelUpdate)), "channel updates")
	// Output:
	// 0 Projects
	// 0 beta
	// 5 alpha
	// 2 channel updates
}

func ExampleGuildService_GetWidgetImage() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{WidgetEnabled: ptr(true)})

	img, err := srv.Client().Guilds.GetWidgetImage(context.Background(), g.ID, guildkit.WidgetStyleBanner2)
	if err != nil {
		log.Fatal(err)
	}
	defer img.Close()
	cfg, err := png.DecodeConfig(img)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Width, cfg.Height)
	// Output: 320 82
}

func ExampleGuildService_ModifyIncidentActions() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})

	data, err := srv.Client().Guilds.ModifyIncidentActions(context.Background(), g.ID, &guildkit.GuildIncidentActionsModifyParams{
		InvitesDisabledUntil: guildkit.Some(time.Now().Add(6 * time.Hour)), // pause invites
		DMsDisabledUntil:     guildkit.Null[time.Time](),                   // let DMs through
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(data.InvitesDisabledUntil != nil, data.DMsDisabledUntil == nil)
	// Output: true true
}
