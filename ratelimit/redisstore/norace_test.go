//go:build !race

package redisstore_test

const raceEnabled = false
