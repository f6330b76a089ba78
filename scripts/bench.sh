#!/usr/bin/env bash
# Prints guildkit/floor ratios of the twin benchmarks: every call made by
# guildkit and by a plain net/http + encoding/json client (the floor)
# against the same loopback handler in the same run, with the geomean.
#
#   scripts/bench.sh            # 3 runs of each, the median kept
#   COUNT=10 scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-3}"
out=$(go test -run '^$' -bench '^BenchmarkTwin$' -benchmem -count "$count" .)
echo "$out" | grep '^BenchmarkTwin/' | awk -v count="$count" '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((n + 1) / 2)]
}
{
	split($1, p, "/"); call = p[2]; side = p[3]; sub(/-[0-9]+$/, "", side)
	ns[call, side] = ns[call, side] " " $3
	for (i = 4; i <= NF; i++) {
		if ($(i + 1) == "B/op") by[call, side] = by[call, side] " " $i
		if ($(i + 1) == "allocs/op") al[call, side] = al[call, side] " " $i
	}
	if (!(call in seen)) { seen[call] = 1; order[++n] = call }
}
END {
	printf "%-22s %14s %14s %7s %12s %12s %7s %9s %9s %7s\n", "call", "ns/op", "floor", "ratio", "B/op", "floor", "ratio", "allocs", "floor", "ratio"
	gn = gb = ga = 0
	for (k = 1; k <= n; k++) {
		c = order[k]
		n1 = median(ns[c, "guildkit"]); n0 = median(ns[c, "floor"])
		b1 = median(by[c, "guildkit"]); b0 = median(by[c, "floor"])
		a1 = median(al[c, "guildkit"]); a0 = median(al[c, "floor"])
		printf "%-22s %14d %14d %6.2fx %12d %12d %6.2fx %9d %9d %6.2fx\n", c, n1, n0, n1 / n0, b1, b0, b1 / b0, a1, a0, a1 / a0
		gn += log(n1 / n0); gb += log(b1 / b0); ga += log(a1 / a0)
	}
	printf "%-22s %14s %14s %6.2fx %12s %12s %6.2fx %9s %9s %6.2fx\n", "geomean", "", "", exp(gn / n), "", "", exp(gb / n), "", "", exp(ga / n)
	printf "(median of %d runs each)\n", count
}'
