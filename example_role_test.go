package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// Create a role, place it, give it to a member and count its holders.
// The in-memory server stands in for a deployment.
func ExampleRoleService() {
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	ada := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	client := srv.Client()
	ctx := context.Background()

	mods, err := client.Roles.Create(ctx, guild.ID, &guildkit.RoleCreateParams{
		Name:        guildkit.Some("moderators"),
		Permissions: guildkit.Some(guildkit.PermissionKickMembers | guildkit.PermissionModerateMembers),
		Hoist:       guildkit.Some(true),
	}, guildkit.WithReason("a team for the weekend shifts"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(mods.Name, mods.Permissions)

	roles, err := client.Roles.ModifyPositions(ctx, guild.ID, []guildkit.RolePositionParams{{ID: mods.ID, Position: guildkit.Some(1)}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("roles in the guild:", len(roles))

	if err := client.Members.AddRole(ctx, guild.ID, ada.User.ID, mods.ID); err != nil {
		log.Fatal(err)
	}
	counts, err := client.Roles.MemberCounts(ctx, guild.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("moderators:", counts[mods.ID])
	// Output:
	// moderators KICK_MEMBERS|MODERATE_MEMBERS
	// roles in the guild: 2
	// moderators: 1
}

func ExampleRoleService_Create() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	client := srv.Client()
	ctx := context.Background()

	// Fields left out take the interface's defaults: here the colour, and
	// hoist and mentionable (false).
	role, err := client.Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{
		Name:        guildkit.Some("moderators"),
		Permissions: guildkit.Some(guildkit.PermissionKickMembers | guildkit.PermissionBanMembers),
		Mentionable: guildkit.Some(true),
	}, guildkit.WithReason("new team"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(role.Name, role.Permissions, role.Mentionable, role.Hoist)
	fmt.Println(role.Permissions.Has(guildkit.PermissionBanMembers))

	// An explicit empty name is refused before anything is sent (leave Name
	// out for the default "new role").
	_, err = client.Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("")})
	var ve *guildkit.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Problems[0].Path)
	// Output:
	// moderators KICK_MEMBERS|BAN_MEMBERS true false
	// true
	// true name
}

func ExampleRoleService_Modify() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	r := srv.AddRole(g.ID, guildkit.Role{Name: "helpers", Position: 1})
	client := srv.Client()

	// Only the fields given change; Null clears the unicode emoji icon.
	role, err := client.Roles.Modify(context.Background(), g.ID, r.ID, &guildkit.RoleModifyParams{
		Name:         guildkit.Some("mentors"),
		Hoist:        guildkit.Some(true),
		UnicodeEmoji: guildkit.Null[string](),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(role.Name, role.Hoist, role.UnicodeEmoji.IsNull())
	fmt.Println(len(srv.EventsNamed(guildkit.EventGuildRoleUpdate)), "role update")
	// Output:
	// mentors true true
	// 1 role update
}
