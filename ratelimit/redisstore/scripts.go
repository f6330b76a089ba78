package redisstore

import "github.com/redis/go-redis/v9"

// The scripts: one per Store operation, each one atomic step in Redis. All
// keys of a token start with "{gk:<token hash>}", so they share one hash
// slot, and every key a script reads or writes is declared in KEYS, as
// Redis's scripting rules ask (a Cluster routes a script by its keys, and
// servers such as Dragonfly refuse undeclared ones); no key is empty. A
// bucket's key depends on the bucket id the route is known by, which the
// script reads: the client names the key it believes in, and the script
// answers "ask again" with the id it found when they differ. Time is
// Redis's TIME, never a client's clock. Every key they write has a TTL.
//
// A bucket is a hash: d (discovered), u (unlimited), l (limit), rem
// (remaining), rst (the window's end, ms; 0 unknown), rp (rst is
// provisional: a new window's end before its first answer), g (window
// generation), cl (while undiscovered: when the discovery claim lapses, ms),
// cur (slots taken in the current window and not yet answered). The
// invalid-request count is a hash of minute → count.

// common is the head of every script: the time, and how to read a bucket.
const common = `
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local now = math.floor(now_us / 1000)
local function num(v) return tonumber(v) or 0 end
local function load(key)
  local v = redis.call('HMGET', key, 'd', 'u', 'l', 'rem', 'rst', 'rp', 'g', 'cl', 'cur')
  return {d = num(v[1]), u = num(v[2]), l = num(v[3]), rem = num(v[4]), rst = num(v[5]), rp = num(v[6]), g = num(v[7]), cl = num(v[8]), cur = num(v[9])}
end
local function save(key, b, idle)
  redis.call('HSET', key, 'd', b.d, 'u', b.u, 'l', b.l, 'rem', b.rem, 'rst', b.rst, 'rp', b.rp, 'g', b.g, 'cl', b.cl, 'cur', b.cur)
  local ttl = idle
  if b.rst > now then ttl = ttl + (b.rst - now) end
  if b.cl > now then ttl = ttl + (b.cl - now) end
  redis.call('PEXPIRE', key, ttl)
end
`

// reserveScript takes a slot in the bucket and the global window, both or
// neither.
//
// KEYS: route key, pause key, global log key, global sequence key, bucket
// key (named by the bucket id the client believes the route has, or by the
// route when it believes none). For a request without a route the first
// and last are any of the others: the script does not touch them.
// ARGV: route (0/1), the id the bucket key names ("" for the route's key),
// global limit, global window (µs), claim TTL (ms), idle TTL (ms), poll
// (ms), exempt from the global pause (0/1).
// Returns {taken (1; 0 wait; 2 ask again with the bucket key of the id
// returned), wait µs, global, pending, bucket id, claim, gen, global
// entry}.
var reserveScript = redis.NewScript(common + `
local route, guess = ARGV[1] == '1', ARGV[2]
local glimit, gwindow = tonumber(ARGV[3]), tonumber(ARGV[4])
local claimTTL, idle, poll = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local pause = 0
if ARGV[8] ~= '1' then pause = num(redis.call('GET', KEYS[2])) end
if pause > now then
  return {0, (pause - now) * 1000, 1, 0, '', 0, 0, 0}
end
local id, bkey, b = '', KEYS[5], nil
if route then
  id = redis.call('GET', KEYS[1]) or ''
  if id ~= guess then
    return {2, 0, 0, 0, id, 0, 0, 0}
  end
  b = load(bkey)
  if b.d ~= 1 then
    if b.cl > now then
      return {0, math.min(poll, b.cl - now) * 1000, 0, 1, id, 0, 0, 0}
    end
  elseif b.u ~= 1 then
    if b.rst > 0 and now >= b.rst then
      -- The window is over: a new one with the full limit begins, less the
      -- last window's requests still in flight (they may yet reach the
      -- service in the new one); its end is provisional until its first
      -- answer.
      b.rem = math.max(b.l - b.cur, 0)
      b.cur = 0
      b.rst = now + claimTTL
      b.rp = 1
      b.g = b.g + 1
      save(bkey, b, idle)
    end
    if b.rem <= 0 then
      if b.rp == 1 then
        -- Used up before the window's first answer: that answer tells its
        -- end, so look again soon.
        return {0, math.max(math.min(poll, b.rst - now), 1) * 1000, 0, 1, id, 0, 0, 0}
      end
      return {0, math.max(b.rst - now, 1) * 1000, 0, 0, id, 0, 0, 0}
    end
  end
end
local seq = 0
if glimit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now_us - gwindow)
  if redis.call('ZCARD', KEYS[3]) >= glimit then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    return {0, math.max(num(oldest[2]) + gwindow - now_us, 1), 1, 0, id, 0, 0, 0}
  end
  seq = redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], idle)
  redis.call('ZADD', KEYS[3], now_us, seq)
  redis.call('PEXPIRE', KEYS[3], math.floor(gwindow / 1000) + 1000)
end
local claim = 0
if b ~= nil then
  if b.d ~= 1 then
    b.cl = now + claimTTL
    claim = 1
  elseif b.u ~= 1 then
    b.rem = b.rem - 1
    b.cur = b.cur + 1
  end
  save(bkey, b, idle)
end
return {1, 0, 0, 0, id, claim, b and b.g or 0, seq}
`)

// releaseScript gives back a slot or claim not used.
//
// KEYS: bucket key. ARGV: gen, claim (0/1), idle TTL (ms).
var releaseScript = redis.NewScript(common + `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local b = load(KEYS[1])
if ARGV[2] == '1' then
  if b.d ~= 1 then b.cl = 0 end
elseif num(ARGV[1]) == b.g and b.d == 1 and b.u ~= 1 then
  b.rem = b.rem + 1
  b.cur = math.max(b.cur - 1, 0)
end
save(KEYS[1], b, tonumber(ARGV[3]))
return 1
`)

// observeScript merges an answer.
//
// KEYS: route key, pause key, bucket key (the ticket's when a bucket slot is
// held; otherwise named as for reserveScript), global log key, invalid
// count key, the bucket key under the answer's bucket id (the bucket key
// again when the answer named none). For a request without a route the
// bucket keys are any of the others: the script does not touch them.
// ARGV: route (0/1), the id the bucket key names when no slot is held,
// status, limited (0/1), limit, remaining, reset after (ms, -1 when absent),
// bucket id, retry after (ms), global (0/1), scope, held (0/1: a bucket
// slot), gen, claim (0/1), idle TTL (ms), global entry (0: none), global
// margin (µs), invalid requests carried back from the fallback.
// Returns {1, the bucket id known for the route}, or {2, id}: ask again
// with the bucket key of that id.
var observeScript = redis.NewScript(common + invalidCount + `
local route, guess = ARGV[1] == '1', ARGV[2]
local status, limited, limit, remaining = tonumber(ARGV[3]), ARGV[4] == '1', tonumber(ARGV[5]), tonumber(ARGV[6])
local resetAfter, bucket, retry = tonumber(ARGV[7]), ARGV[8], tonumber(ARGV[9])
local global, scope, held = ARGV[10] == '1', ARGV[11], ARGV[12] == '1'
local gen, claim, idle = tonumber(ARGV[13]), ARGV[14] == '1', tonumber(ARGV[15])
local slot, margin, carry = ARGV[16], tonumber(ARGV[17]), tonumber(ARGV[18])
local tooMany = status == 429
local bkey = KEYS[3]
if not held and route and status ~= 0 then
  -- Check the key before writing anything.
  local id = redis.call('GET', KEYS[1]) or ''
  if id ~= guess then return {2, id} end
end
if slot ~= '0' and status ~= 0 then
  -- The service counted the request by the time it answered: a send
  -- answered later than the margin keeps its place in the global window
  -- from its answer, less the margin.
  local sc = redis.call('ZSCORE', KEYS[4], slot)
  if sc and now_us - tonumber(sc) > math.max(margin, 1000) then
    redis.call('ZADD', KEYS[4], 'XX', now_us - margin, slot)
  end
end
local invalid = carry
if status == 401 or status == 403 or (tooMany and scope ~= 'shared') then
  invalid = invalid + 1
end
if invalid > 0 then addInvalid(KEYS[5], invalid) end
if tooMany and global then
  local until_ = now + retry
  if until_ > num(redis.call('GET', KEYS[2])) then
    redis.call('SET', KEYS[2], until_, 'PX', math.max(retry, 1))
  end
end
if not route then return {1, ''} end
if not held then
  if status == 0 then return {1, ''} end
  claim = false
  gen = num(redis.call('HGET', bkey, 'g'))
end
local b = load(bkey)
if held and not claim and gen == b.g then
  b.cur = math.max(b.cur - 1, 0)
end
if status == 0 then
  -- No answer: give the slot back unless the window moved on.
  if claim then
    if b.d ~= 1 then b.cl = 0 end
  elseif gen == b.g and b.d == 1 and b.u ~= 1 then
    b.rem = b.rem + 1
  end
  save(bkey, b, idle)
  return {1, ''}
end
if claim and b.d ~= 1 then b.cl = 0 end
if bucket ~= '' then
  redis.call('SET', KEYS[1], bucket, 'PX', idle)
  local nkey = KEYS[6]
  if nkey ~= bkey then
    -- Learned the bucket id: move the state under it, or, when another
    -- route already uses that bucket, take its state as the truth.
    if redis.call('EXISTS', nkey) == 1 then
      b = load(nkey)
      gen = b.g
    end
    redis.call('DEL', bkey)
    bkey = nkey
  end
end
if tooMany and (global or scope == 'shared') then
  save(bkey, b, idle)
  return {1, bucket}
end
local first = b.d ~= 1
-- Another request's claim on the bucket under its id, taken while this one
-- was answered under its route, is in flight: it counts against what the
-- answer says is left.
local otherClaim = 0
if first and b.cl > now then otherClaim = 1 end
b.d = 1
b.cl = 0
if tooMany then
  if limited then b.l = limit end
  b.l = math.max(b.l, 1)
  b.u = 0
  b.rem = 0
  local until_ = now + retry
  if b.rp == 1 or until_ > b.rst then b.rst = until_; b.rp = 0 end
  save(bkey, b, idle)
  return {1, bucket}
end
if not limited then
  if first then b.u = 1 end
  save(bkey, b, idle)
  return {1, bucket}
end
b.u = 0
b.l = limit
if gen ~= b.g and not first then
  save(bkey, b, idle)
  return {1, bucket}
end
if first then
  b.rem = math.max(remaining - otherClaim, 0)
else
  b.rem = math.min(b.rem, remaining)
end
if resetAfter >= 0 then
  local until_ = now + resetAfter
  if b.rp == 1 or until_ > b.rst then b.rst = until_; b.rp = 0 end
elseif b.rst == 0 then
  b.rst = now + 1000
end
save(bkey, b, idle)
return {1, bucket}
`)

// invalidCount is the head of the scripts that count invalid requests: a
// hash of minute → count, kept 11 minutes past its last change, from which
// minutes older than the window are dropped as counts are added.
const invalidCount = `
local function addInvalid(key, n)
  local minute = math.floor(now / 60000)
  redis.call('HINCRBY', key, minute, n)
  local v = redis.call('HKEYS', key)
  for _, m in ipairs(v) do
    if tonumber(m) <= minute - 10 then redis.call('HDEL', key, m) end
  end
  redis.call('PEXPIRE', key, 660000)
end
`

// invalidScript sums the token's invalid requests over the last 10
// minutes, after adding those carried back from the fallback.
//
// KEYS: invalid count key. ARGV: invalid requests carried back.
var invalidScript = redis.NewScript(common + invalidCount + `
local carry = tonumber(ARGV[1])
if carry > 0 then addInvalid(KEYS[1], carry) end
local minute = math.floor(now / 60000)
local v = redis.call('HGETALL', KEYS[1])
local n = 0
for i = 1, #v, 2 do
  if tonumber(v[i]) > minute - 10 then n = n + tonumber(v[i + 1]) end
end
return n
`)
