package redisstore

import "github.com/redis/go-redis/v9"

// The identify limiter's scripts. Its keys, under the token's hash tag
// "{gk:<token hash>}" like the store's, for rate-limit key k:
//
//	:id:k:<k>  hash   free (ms: when the key may be taken again), lease (the
//	                  holder's id, "" once it said it identified)
//	:id:q:<k>  zset   the queue: waiter id → arrival number
//	:id:a:<k>  zset   waiter id → the instant (ms) it is given up as gone
//	:id:n      string the arrival counter
//	:id:b      hash   the daily budget: total, rem (remaining), rst (reset, ms)
//
// Time is Redis's TIME. Every key has a TTL: a key's hash lives its lease
// and a window past its take (so a done that comes after the lease, before
// anyone else took the key, still keeps it a window), the queue as long as
// a waiter keeps polling, the budget until a day past its reset.

// identifyAcquireScript puts a waiter in its key's queue (or refreshes its
// place), drops waiters that stopped polling, and takes the key for the
// waiter when it is the queue's head and the key is free.
//
// KEYS: key hash, queue, alive, arrival counter, budget.
// ARGV: waiter id, lease (ms), alive (ms), reserve, window (ms).
// Returns {1} taken; {0, wait ms} wait and ask again; {2, remaining,
// total, reset in ms} refused: the budget is down to the reserve.
var identifyAcquireScript = redis.NewScript(common + `
local id, lease, alive, reserve = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, w in ipairs(gone) do
  redis.call('ZREM', KEYS[2], w)
  redis.call('ZREM', KEYS[3], w)
end
local b = redis.call('HMGET', KEYS[5], 'total', 'rem', 'rst')
local total, rem, rst = num(b[1]), num(b[2]), num(b[3])
if total > 0 and now >= rst then
  rem, rst = total, now + 86400000
  redis.call('HSET', KEYS[5], 'rem', rem, 'rst', rst)
  redis.call('PEXPIRE', KEYS[5], 2 * 86400000)
end
if total > 0 and rem <= reserve then
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  return {2, rem, total, rst - now}
end
if not redis.call('ZSCORE', KEYS[2], id) then
  local n = redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], 86400000)
  redis.call('ZADD', KEYS[2], n, id)
end
redis.call('ZADD', KEYS[3], now + alive, id)
redis.call('PEXPIRE', KEYS[2], alive)
redis.call('PEXPIRE', KEYS[3], alive)
local free = num(redis.call('HGET', KEYS[1], 'free'))
local head = redis.call('ZRANGE', KEYS[2], 0, 0)
if head[1] ~= id or now < free then
  return {0, math.max(free - now, 0)}
end
redis.call('ZREM', KEYS[2], id)
redis.call('ZREM', KEYS[3], id)
redis.call('HSET', KEYS[1], 'free', now + lease, 'lease', id)
redis.call('PEXPIRE', KEYS[1], lease + tonumber(ARGV[5]))
if total > 0 then redis.call('HINCRBY', KEYS[5], 'rem', -1) end
return {1}
`)

// identifyDoneScript keeps the key a window from now, if the waiter still
// holds it (its lease did not pass to another).
//
// KEYS: key hash. ARGV: waiter id, window (ms).
// Returns 1 when the waiter held the key.
var identifyDoneScript = redis.NewScript(common + `
if redis.call('HGET', KEYS[1], 'lease') ~= ARGV[1] then return 0 end
local window = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'free', now + window, 'lease', '')
redis.call('PEXPIRE', KEYS[1], window)
return 1
`)

// identifyLeaveScript takes a waiter out of its key's queue.
//
// KEYS: queue, alive. ARGV: waiter id.
var identifyLeaveScript = redis.NewScript(`
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
`)

// identifySetLimitScript records what GET /gateway/bot reported: within the
// current budget window, the lower remaining count wins.
//
// KEYS: budget. ARGV: total, remaining, reset after (ms).
var identifySetLimitScript = redis.NewScript(common + `
local total, rem, after = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'total', 'rem', 'rst')
local rst = now + after
if num(b[1]) > 0 and now < num(b[3]) and num(b[2]) < rem then
  rem, rst = num(b[2]), num(b[3])
end
redis.call('HSET', KEYS[1], 'total', total, 'rem', rem, 'rst', rst)
redis.call('PEXPIRE', KEYS[1], math.max(rst - now, 0) + 86400000)
return 1
`)
