package guildkit

import (
	"bytes"
	"fmt"
	"strings"
)

// The answers of the twin benchmarks (twin_bench_test.go), shared with the
// tests that hold internal/jsondec to encoding/json on them. The realistic
// ones carry escapes where the platform's answers do: quotes in names and
// nicknames, an emoji as a surrogate pair, a description and a message's
// content of several lines.

// TwinBodies is twinBodies for the benchmarks of package guildkit_test.
var TwinBodies = twinBodies

// twinBodies returns the answers of Get Guild, List Guild Members (1000),
// Modify Guild Member and Execute Webhook, realistic or all-null.
func twinBodies(realistic bool) (guild, members, member, message []byte) {
	if !realistic {
		guild = []byte(`{"id":"100000000000000001","name":"Gopher Guild","icon":null,"splash":null,"discovery_splash":null,` +
			`"owner_id":"100000000000000002","afk_channel_id":null,"afk_timeout":300,"verification_level":1,"default_message_notifications":0,` +
			`"explicit_content_filter":0,"roles":[{"id":"100000000000000001","name":"@everyone","color":0,"colors":{"primary_color":0,"secondary_color":null,"tertiary_color":null},"hoist":false,"icon":null,"unicode_emoji":null,"position":0,"permissions":"1024","managed":false,"mentionable":false,"flags":0}],` +
			`"emojis":[{"id":"100000000000000009","name":"gopher","roles":[],"require_colons":true,"managed":false,"animated":false,"available":true}],` +
			`"features":["COMMUNITY"],"mfa_level":0,"application_id":null,"system_channel_id":null,"system_channel_flags":0,"rules_channel_id":null,` +
			`"max_presences":null,"max_members":500000,"vanity_url_code":null,"description":null,"banner":null,"premium_tier":0,"premium_subscription_count":0,` +
			`"preferred_locale":"en-US","public_updates_channel_id":null,"max_video_channel_users":25,"max_stage_video_channel_users":50,"nsfw_level":0,` +
			`"stickers":[],"premium_progress_bar_enabled":false,"safety_alerts_channel_id":null,"incidents_data":null}`)
		memberOf := func(i int) string {
			return fmt.Sprintf(`{"user":{"id":"%d","username":"user%d","discriminator":"0","global_name":null,"avatar":null,"public_flags":0,"flags":0,"primary_guild":null,"avatar_decoration_data":null},`+
				`"nick":null,"avatar":null,"banner":null,"roles":["100000000000000003"],"joined_at":"2024-01-02T03:04:05.678000+00:00","premium_since":null,`+
				`"deaf":false,"mute":false,"flags":0,"pending":false,"communication_disabled_until":null,"avatar_decoration_data":null}`, 200000000000000000+i, i)
		}
		message = []byte(`{"id":"300000000000000001","channel_id":"100000000000000005","author":{"id":"300000000000000002","username":"CI","discriminator":"0000","avatar":null,"bot":true},` +
			`"content":"build log","timestamp":"2024-01-02T03:04:05.678000+00:00","edited_timestamp":null,"tts":false,"mention_everyone":false,"mentions":[],"mention_roles":[],` +
			`"attachments":[{"id":"300000000000000003","filename":"log.txt","size":65536,"url":"https://cdn.example/a/log.txt","proxy_url":"https://cdn.example/a/log.txt","content_type":"text/plain"}],` +
			`"embeds":[],"pinned":false,"webhook_id":"300000000000000002","type":0,"flags":0,"components":[]}`)
		return guild, memberList(memberOf), []byte(memberOf(7)), message
	}
	var g strings.Builder
	g.WriteString(`{"id":"100000000000000001","name":"Gopher Guild","icon":"a_1269e74af4df7417b13759eae50c83dc","icon_hash":"a_1269e74af4df7417b13759eae50c83dc",` +
		`"splash":"b5f2b8e4a2c94f0d8e3a7c6b1d9e0f21","discovery_splash":"c0ffee00c0ffee00c0ffee00c0ffee00",` +
		`"owner_id":"100000000000000002","afk_channel_id":"100000000000000006","afk_timeout":300,"widget_enabled":true,"widget_channel_id":"100000000000000005",` +
		`"verification_level":1,"default_message_notifications":1,"explicit_content_filter":2,"roles":[`)
	for i := range 20 {
		if i > 0 {
			g.WriteByte(',')
		}
		fmt.Fprintf(&g, `{"id":"%d","name":"Role \"number\" %d","description":null,"color":3447003,`+
			`"colors":{"primary_color":3447003,"secondary_color":15277667,"tertiary_color":16777215},"hoist":true,`+
			`"icon":"6f4e8d2a9b1c3e5f7a9b1c3e5f7a9b%02d","unicode_emoji":"✨","position":%d,"permissions":"2248473465835073",`+
			`"managed":false,"mentionable":true,"flags":1,"version":1719000000000,`+
			`"tags":{"bot_id":"100000000000000011","integration_id":"100000000000000012","premium_subscriber":null}}`,
			100000000000000020+i, i, i, i)
	}
	g.WriteString(`],"emojis":[{"id":"100000000000000009","name":"gopher","roles":["100000000000000021","100000000000000022"],` +
		`"user":{"id":"100000000000000002","username":"owner","discriminator":"0","global_name":"The Owner","avatar":"9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b",` +
		`"public_flags":64,"flags":64,"banner":"0a1b2c3d4e5f60718293a4b5c6d7e8f9","accent_color":16711680,` +
		`"avatar_decoration_data":{"asset":"a_fed43ab12698df65902ba06727e20c0e","sku_id":"1144058844004233369","expires_at":null},` +
		`"primary_guild":{"identity_guild_id":"100000000000000001","identity_enabled":true,"tag":"GO","badge":"7e4e4d1c2b3a49586776859443a2b1c0"},` +
		`"collectibles":{"nameplate":{"asset":"nameplates/spring/cherry/","palette":"crimson","sku_id":"1349486948942745691","label":"","expires_at":null}},` +
		`"clan":{"identity_guild_id":"100000000000000001","identity_enabled":true,"tag":"GO","badge":"7e4e4d1c2b3a49586776859443a2b1c0"}},` +
		`"require_colons":true,"managed":false,"animated":true,"available":true}],` +
		`"features":["COMMUNITY","NEWS","ROLE_ICONS","ANIMATED_ICON","BANNER","VANITY_URL","INVITE_SPLASH","DISCOVERABLE"],"mfa_level":1,` +
		`"application_id":"100000000000000013","system_channel_id":"100000000000000005","system_channel_flags":9,"rules_channel_id":"100000000000000014",` +
		`"max_presences":25000,"max_members":500000,"vanity_url_code":"gophers","description":"Where gophers meet\nto talk about Go.",` +
		`"banner":"d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9","premium_tier":3,"premium_subscription_count":42,"preferred_locale":"en-US",` +
		`"public_updates_channel_id":"100000000000000015","max_video_channel_users":25,"max_stage_video_channel_users":50,` +
		`"approximate_member_count":12345,"approximate_presence_count":2345,"nsfw_level":0,"nsfw":false,` +
		`"stickers":[{"id":"100000000000000016","name":"wave","tags":"wave","type":2,"format_type":1,"description":"a gopher waving","asset":"","available":true,"guild_id":"100000000000000001"}],` +
		`"premium_progress_bar_enabled":true,"safety_alerts_channel_id":"100000000000000017","home_header":"e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6",` +
		`"incidents_data":{"invites_disabled_until":"2024-01-02T03:04:05.678901+00:00","dms_disabled_until":"2024-01-02T03:04:05.678901+00:00",` +
		`"dm_spam_detected_at":"2024-01-01T23:59:59.123456+00:00","raid_detected_at":"2024-01-01T23:59:59.123456+00:00"},` +
		`"region":"deprecated","embed_enabled":true,"embed_channel_id":"100000000000000005","hub_type":null,"latest_onboarding_question_id":"100000000000000018",` +
		`"owner_configured_content_level":0,"inventory_settings":null,"version":1719000000000,"profile":null,"clan":null}`)
	memberOf := func(i int) string {
		return fmt.Sprintf(`{"user":{"id":"%d","username":"user%d","discriminator":"0","global_name":"User \"Number\" %d \ud83d\ude00",`+
			`"avatar":"a_%032d","public_flags":256,"flags":256,"banner":"%032d","accent_color":5793266,`+
			`"avatar_decoration_data":{"asset":"a_fed43ab12698df65902ba06727e20c0e","sku_id":"1144058844004233369","expires_at":null},`+
			`"primary_guild":{"identity_guild_id":"100000000000000001","identity_enabled":true,"tag":"GO","badge":"7e4e4d1c2b3a49586776859443a2b1c0"},`+
			`"collectibles":null,"display_name_styles":null,"clan":{"identity_guild_id":"100000000000000001","identity_enabled":true,"tag":"GO","badge":"7e4e4d1c2b3a49586776859443a2b1c0"}},`+
			`"nick":"Nick \"the\" %d","avatar":"%032d","banner":"b_%032d","roles":["100000000000000020","100000000000000021","100000000000000022"],`+
			`"joined_at":"2024-01-02T03:04:05.678901+00:00","premium_since":"2024-03-04T05:06:07.891234+00:00",`+
			`"deaf":false,"mute":false,"flags":10,"pending":false,"communication_disabled_until":"2099-01-02T03:04:05.678901+00:00",`+
			`"unusual_dm_activity_until":null,"collectibles":null,"display_name_styles":null,`+
			`"avatar_decoration_data":{"asset":"a_fed43ab12698df65902ba06727e20c0e","sku_id":"1144058844004233369","expires_at":1735689600}}`,
			200000000000000000+i, i, i, i, i, i, i, i)
	}
	message = []byte(`{"id":"300000000000000001","channel_id":"100000000000000005","author":{"id":"300000000000000002","username":"CI","discriminator":"0000",` +
		`"avatar":"0123456789abcdef0123456789abcdef","bot":true,"global_name":null,"clan":null,"primary_guild":null},` +
		`"content":"build log\n\u2705 passed: 12\n\ud83d\ude00 \"all green\"","timestamp":"2024-01-02T03:04:05.678901+00:00","edited_timestamp":"2024-01-02T03:04:06.123456+00:00","tts":false,` +
		`"mention_everyone":false,"mentions":[],"mention_roles":[],` +
		`"attachments":[{"id":"300000000000000003","filename":"log.txt","size":65536,"url":"https://cdn.example/attachments/100000000000000005/300000000000000003/log.txt?ex=6651a2b3&is=66505133&hm=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0&",` +
		`"proxy_url":"https://media.example/attachments/100000000000000005/300000000000000003/log.txt?ex=6651a2b3&is=66505133&hm=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0&",` +
		`"content_type":"text/plain; charset=utf-8","content_scan_version":1,"placeholder":null,"placeholder_version":null,"title":"log"}],` +
		`"embeds":[],"pinned":false,"webhook_id":"300000000000000002","type":0,"flags":0,"components":[],"application_id":"100000000000000013"}`)
	return []byte(g.String()), memberList(memberOf), []byte(memberOf(7)), message
}

// memberList is the JSON array of the members 0 to 999.
func memberList(memberOf func(int) string) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(memberOf(i))
	}
	b.WriteByte(']')
	return b.Bytes()
}
