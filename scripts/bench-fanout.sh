#!/usr/bin/env bash
# Measures the emulator's gateway under fan-out from outside
# (BenchmarkFanOut in cmd/guildkit-emulator): the emulator's binary as a
# process of its own, the gateway sessions and 8 REST callers in the
# benchmark's process; every message posted reaches every session as
# MESSAGE_CREATE. Prints each figure beside its goal. The machine's load
# average is printed with each run: on a shared machine it moves the
# figures.
#
#   scripts/bench-fanout.sh                          # 1,000 then 10,000 sessions, 300 messages, 60 s settle
#   SESSIONS=1000 SETTLE=10s scripts/bench-fanout.sh
#   SESSIONS=1000,5000 MESSAGES=100 scripts/bench-fanout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sessions="${SESSIONS:-1000,10000}"
messages="${MESSAGES:-300}"
settle="${SETTLE:-60s}"

echo "# open files: soft $(ulimit -Sn), hard $(ulimit -Hn) (each side needs one per session; Go raises the soft limit to the hard one)"
echo "# before: $(uptime)"
out=$(GUILDKIT_FANOUT_SESSIONS="$sessions" GUILDKIT_FANOUT_SETTLE="$settle" \
	go test -run '^$' -bench '^BenchmarkFanOut$' -benchtime "${messages}x" -timeout 3h ./cmd/guildkit-emulator/ 2>&1) || {
	echo "$out"
	exit 1
}
echo "# after:  $(uptime)"
echo "$out" | grep -E '^BenchmarkFanOut/' | awk -v settle="$settle" '
function row(name, unit, goal, ok) {
	if (!(unit in v)) return
	printf "  %-28s %12.6g   %-34s %s\n", name, v[unit], goal, (ok == "" ? "" : (ok ? "meets" : "misses"))
}
{
	delete v
	for (i = 3; i < NF; i += 2) v[$(i + 1)] = $i
	split($1, p, "/"); size = p[2]; sub(/-[0-9]+$/, "", size)
	n = size; sub(/^sessions=/, "", n); n += 0
	printf "%s, %s messages, %s ns/op, load average %s as the burst ended\n", size, $2, $3, v["load-avg"]
	row("deliveries/s", "deliveries/s", n == 1000 ? ">= 150,000 at 1,000 sessions" : "", n == 1000 ? v["deliveries/s"] >= 150000 : "")
	row("p50 (ms)", "p50-ms", "call returned -> received", "")
	row("p99 (ms)", "p99-ms", "", "")
	row("emulator CPU/delivery (ns)", "emu-cpu-ns/delivery", "", "")
	row("client CPU/delivery (ns)", "client-cpu-ns/delivery", "", "")
	row("live B/idle session", "B/session-live", "<= 16 KB (16,384)", v["B/session-live"] <= 16384)
	row("RSS B/idle session", "B/session-rss", "<= 16 KB (16,384)", v["B/session-rss"] <= 16384)
	row("RSS idle (MB)", "rss-idle-MB", "every session connected", "")
	row("RSS after burst (MB)", "rss-after-burst-MB", "", "")
	row("RSS settled (MB)", "rss-settled-MB", "after " settle " of heartbeats", "")
	row("RSS settled/idle", "rss-settled/idle", "<= 1.20 (a minute after the burst)" (v["settle-s"] < 60 ? ", " settle " here" : ""), v["rss-settled/idle"] <= 1.2)
	row("heap in use settled (MB)", "settled-heap-inuse-MB", "no collection forced", "")
	row("heap released settled (MB)", "settled-heap-released-MB", "returned to the system", "")
	row("runtime sys settled (MB)", "settled-sys-MB", "", "")
	row("goroutines settled", "settled-goroutines", "", "")
	if (n >= 10000) printf "  %-28s %12s   %-34s %s\n", "sessions served", n, ">= 10,000 connected and served", "meets"
}'
