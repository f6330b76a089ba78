package guildkittest

import "time"

// sendCounter counts a connection's payloads against the send limit
// (SendLimit per 60 s of the server's clock, heartbeats included), in one
// of two ways:
//
//   - fixed windows (the default): 60 s windows one after another from the
//     moment the connection opened, as every client library counts them
//     (discord.js, discord.py, discordgo, disgo: 120 per window that starts
//     when their connection opens), and as the platform lets clients
//     through in production. A client that keeps to its own count is never
//     closed.
//   - a sliding window (GatewaySettings.StrictSendWindow): any 60 s at all,
//     the strictest reading of the limit, for testing that a client keeps a
//     margin; it closes discord.js with 4008 when a burst at the end of one
//     of its windows meets a burst at the start of the next.
type sendCounter struct {
	start time.Time   // the current fixed window's start; the first starts with the connection
	count int         // payloads in the current fixed window
	sends []time.Time // the sliding window's payloads
}

// allow counts a payload sent at now; false when it is over limit.
func (c *sendCounter) allow(now time.Time, limit int, strict bool) bool {
	if strict {
		i := 0
		for i < len(c.sends) && now.Sub(c.sends[i]) >= sendWindow {
			i++
		}
		c.sends = append(c.sends[:0], c.sends[i:]...)
		c.sends = append(c.sends, now)
		return len(c.sends) <= limit
	}
	if elapsed := now.Sub(c.start); elapsed >= sendWindow {
		c.start = c.start.Add(elapsed.Truncate(sendWindow))
		c.count = 0
	}
	c.count++
	return c.count <= limit
}
