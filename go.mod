module github.com/seed012df1e9/guildkit

go 1.24.0

require (
	github.com/google/go-querystring v1.2.0
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
