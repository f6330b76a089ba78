#!/usr/bin/env bash
# Prints guildkit/floor ratios of the twin benchmarks: every call made by
# guildkit and by a plain net/http + encoding/json client (the floor)
# against the same loopback handler in the same run, with the geomean.
# The first table uses realistic answers (every nullable field set,
# BenchmarkTwin), the second answers whose nullable fields are all null
# (BenchmarkTwinAllNull).
#
#   scripts/bench.sh            # 3 runs of each, the median kept
#   COUNT=10 scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-3}"
out=$(go test -run '^$' -bench '^BenchmarkTwin(AllNull)?$' -benchmem -count "$count" .)
echo "$out" | grep '^BenchmarkTwin' | awk -v count="$count" '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((n + 1) / 2)]
}
{
	split($1, p, "/"); kind = p[1]; call = p[2]; side = p[3]; sub(/-[0-9]+$/, "", side)
	key = kind SUBSEP call
	ns[key, side] = ns[key, side] " " $3
	for (i = 4; i <= NF; i++) {
		if ($(i + 1) == "B/op") by[key, side] = by[key, side] " " $i
		if ($(i + 1) == "allocs/op") al[key, side] = al[key, side] " " $i
	}
	if (!(kind in kseen)) { kseen[kind] = 1; korder[++nk] = kind }
	if (!(key in seen)) { seen[key] = 1; order[kind, ++n[kind]] = call }
}
END {
	for (q = 1; q <= nk; q++) {
		kind = korder[q]
		print (kind == "BenchmarkTwin" ? "realistic answers (BenchmarkTwin)" : "all-null answers (BenchmarkTwinAllNull)")
		printf "%-22s %14s %14s %7s %12s %12s %7s %9s %9s %7s\n", "call", "ns/op", "floor", "ratio", "B/op", "floor", "ratio", "allocs", "floor", "ratio"
		gn = gb = ga = 0
		for (k = 1; k <= n[kind]; k++) {
			c = order[kind, k]; key = kind SUBSEP c
			n1 = median(ns[key, "guildkit"]); n0 = median(ns[key, "floor"])
			b1 = median(by[key, "guildkit"]); b0 = median(by[key, "floor"])
			a1 = median(al[key, "guildkit"]); a0 = median(al[key, "floor"])
			printf "%-22s %14d %14d %6.2fx %12d %12d %6.2fx %9d %9d %6.2fx\n", c, n1, n0, n1 / n0, b1, b0, b1 / b0, a1, a0, a1 / a0
			gn += log(n1 / n0); gb += log(b1 / b0); ga += log(a1 / a0)
		}
		printf "%-22s %14s %14s %6.2fx %12s %12s %6.2fx %9s %9s %6.2fx\n\n", "geomean", "", "", exp(gn / n[kind]), "", "", exp(gb / n[kind]), "", "", exp(ga / n[kind])
	}
	printf "(median of %d runs each)\n", count
}'
