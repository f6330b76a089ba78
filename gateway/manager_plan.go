package gateway

import (
	"fmt"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

// ShardFor returns the shard of numShards that carries guildID's events:
// (guild_id >> 22) % num_shards, the platform's formula. Events without a
// guild (DMs) go to shard 0. It returns 0 when numShards < 1.
func ShardFor(guildID guildkit.Snowflake, numShards int) int {
	if numShards < 1 {
		return 0
	}
	return int((uint64(guildID) >> 22) % uint64(numShards))
}

// Buckets returns shards grouped as the platform starts them: bucket b
// holds the shards whose rate-limit key (shard_id % maxConcurrency) may
// identify together in the b-th 5-second window, shards
// [b×maxConcurrency, (b+1)×maxConcurrency), in ascending order. Shards not
// in ids are left out; empty buckets are dropped. So N shards at
// max_concurrency C take ceil(N / C) windows.
func Buckets(ids []int, maxConcurrency int) [][]int {
	if maxConcurrency < 1 {
		maxConcurrency = 1
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	var out [][]int
	for _, id := range sorted {
		b := id / maxConcurrency
		if len(out) == 0 || out[len(out)-1][0]/maxConcurrency != b {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], id)
	}
	return out
}

// ShardRange returns the shard ids from..to-1 of count: the part of a
// token's shards one process runs. Processes split the shards in ranges,
// each running its own, so that every bucket spans processes and the
// shared identify limiter orders them.
func ShardRange(from, to int) []int {
	var ids []int
	for id := from; id < to; id++ {
		ids = append(ids, id)
	}
	return ids
}

// checkShardIDs reports ids out of [0, count) and repeats.
func checkShardIDs(ids []int, count int) error {
	var bad []int
	seen := make(map[int]bool, len(ids))
	for _, id := range ids {
		if id < 0 || id >= count || seen[id] {
			bad = append(bad, id)
		}
		seen[id] = true
	}
	if len(bad) > 0 {
		return fmt.Errorf("gateway: shard ids %v are not distinct ids of [0, %d)", bad, count)
	}
	return nil
}
