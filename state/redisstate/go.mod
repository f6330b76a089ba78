module github.com/seed012df1e9/guildkit/state/redisstate

go 1.24.0

require (
	github.com/redis/go-redis/v9 v9.22.0
	github.com/seed012df1e9/guildkit v0.0.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/klauspost/compress v1.19.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace github.com/seed012df1e9/guildkit => ../..
