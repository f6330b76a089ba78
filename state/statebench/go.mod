module github.com/seed012df1e9/guildkit/state/statebench

go 1.24.0

require (
	github.com/bwmarrin/discordgo v0.29.0
	github.com/disgoorg/disgo v0.18.15
	github.com/seed012df1e9/guildkit v0.0.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/disgoorg/json v1.2.0 // indirect
	github.com/disgoorg/snowflake/v2 v2.0.3 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/sasha-s/go-csync v0.0.0-20240107134140-fcbab37b09ad // indirect
	golang.org/x/crypto v0.31.0 // indirect
	golang.org/x/sys v0.28.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace github.com/seed012df1e9/guildkit => ../..
