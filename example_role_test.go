package guildkit_test

import (
	"context"
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
