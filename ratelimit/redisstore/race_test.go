//go:build race

package redisstore_test

// raceEnabled: the race detector slows every process several times over,
// so the multi-process tests check their counts but not their wall time.
const raceEnabled = true
