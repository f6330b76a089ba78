package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

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

func ExampleRoleService_ModifyPositions() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	a := srv.AddRole(g.ID, guildkit.Role{Name: "a", Position: 1})
	b := srv.AddRole(g.ID, guildkit.Role{Name: "b", Position: 2})
	client := srv.Client()

	// Swap the two roles. The answer lists every role of the guild.
	roles, err := client.Roles.ModifyPositions(context.Background(), g.ID, []guildkit.RolePositionParams{
		{ID: a.ID, Position: guildkit.Some(2)},
		{ID: b.ID, Position: guildkit.Some(1)},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range roles {
		if r.ID == a.ID || r.ID == b.ID {
			fmt.Println(r.Name, r.Position)
		}
	}
	// Output:
	// b 1
	// a 2
}

func ExampleRoleService_MemberCounts() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	r := srv.AddRole(g.ID, guildkit.Role{Name: "readers", Position: 1})
	for _, name := range []string{"ann", "ben"} {
		srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: name}, Roles: []guildkit.Snowflake{r.ID}})
	}
	client := srv.Client()

	counts, err := client.Roles.MemberCounts(context.Background(), g.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(counts[r.ID], "members hold", r.Name)
	// Output: 2 members hold readers
}
