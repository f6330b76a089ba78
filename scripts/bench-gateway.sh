#!/usr/bin/env bash
# Prints guildkit/twin ratios of the gateway benchmarks: the shard's read
# path (coder/websocket, zlib-stream, the frame and the event decoded by the
# SDK's decoder into its types) and a twin (coder/websocket + encoding/json
# into plain structs) reading the same messages in the same run, on one
# core: a GUILD_CREATE of 1,000 members with every nullable field set, and
# a stream of GUILD_MEMBER_ADD, each with and without zlib-stream; and the
# whole shard (reader, owner, queue, dispatch, a handler) on streams of
# GUILD_MEMBER_ADD and MESSAGE_CREATE beside a twin that calls its handler
# inline. The payloads carry escapes where the platform's do.
#
#   scripts/bench-gateway.sh            # 3 runs of each, the median kept
#   COUNT=10 scripts/bench-gateway.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-3}"
go test -run '^$' -bench '^Benchmark(Gateway|Shard)' -benchmem -cpu 1 -count "$count" ./gateway/ |
grep -E '^Benchmark(Gateway|Shard)' | awk '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((n + 1) / 2)]
}
{
	split($1, p, "/"); bench = p[1]; side = p[2]; mode = p[3]
	sub(/^Benchmark/, "", bench); sub(/-[0-9]+$/, "", mode)
	key = bench " " mode
	ns[key, side] = ns[key, side] " " $3
	for (i = 4; i <= NF; i++) {
		if ($(i + 1) == "events/s") ev[key, side] = ev[key, side] " " $i
		if ($(i + 1) == "cpu-ns/event") cpu[key, side] = cpu[key, side] " " $i
		if ($(i + 1) == "B/op") by[key, side] = by[key, side] " " $i
		if ($(i + 1) == "allocs/op") al[key, side] = al[key, side] " " $i
	}
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
}
END {
	printf "%-30s %14s %14s %10s %12s %12s %10s %12s %12s %10s\n", "", "events/s", "twin", "CPU", "allocs/ev", "twin", "allocs", "B/ev", "twin", "bytes"
	for (i = 1; i <= n; i++) {
		k = order[i]
		# CPU: the CPU time per event of the process where the benchmark
		# reports it (the whole shard), else the time per event, which on
		# one core is CPU time when nothing else runs.
		ratio = median(ns[k, "guildkit"]) / median(ns[k, "twin"])
		if (cpu[k, "twin"] != "") ratio = median(cpu[k, "guildkit"]) / median(cpu[k, "twin"])
		printf "%-30s %14.0f %14.0f %10.2f %12.0f %12.0f %10.4f %12.0f %12.0f %10.2f\n", k,
			median(ev[k, "guildkit"]), median(ev[k, "twin"]), ratio,
			median(al[k, "guildkit"]), median(al[k, "twin"]), median(al[k, "guildkit"]) / median(al[k, "twin"]),
			median(by[k, "guildkit"]), median(by[k, "twin"]), median(by[k, "guildkit"]) / median(by[k, "twin"])
	}
}'
