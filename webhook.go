package guildkit

// WebhookService handles the operations on webhooks and webhook messages. Reach it through
// [Client].Webhooks.
type WebhookService service
