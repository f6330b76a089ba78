package redisstate

import "github.com/redis/go-redis/v9"

// The scripts. A guild's keys all start with "<prefix>:{<guild id>}:", so
// they share one hash slot, and every key a script touches is declared in
// KEYS: a Cluster runs each script on the one master that holds the guild.
//
// A guild's keys (guildKeys builds them in this order):
//
//	g    hash: v (the guild's own fields, JSON), joined, large, count,
//	     unavail, stale, gen (member generation), tick (write counter)
//	ch   hash channel id → JSON; chp: thread id → parent id (threads
//	     only); chs: channel id → voice status; chpin: channel id → last
//	     pin time (RFC 3339, "" for none), when set after the channel
//	ro   hash role id → JSON
//	m    hash user id → member JSON (with its user, without roles);
//	     mr: user id → ",role,role,"; mg: user id → generation; ml:
//	     sorted set of user ids by write tick (least recent first)
//	em, st  hash id → JSON
//	pr   hash user id → presence JSON; pl: sorted set by write tick
//	vo   hash user id → voice state JSON
//	ck   hash: the whole member list coming (nonce, left, gen, count);
//	     ckg: set of its chunk indexes seen

// applyScript applies the updates of one event to one guild.
//
// ARGV: self id, member bound, wholesale ("1": the member policy wants
// every member of the guild), presence bound, voice bound, then the
// operations, each a name and its arguments (see width). It returns
// {channel ids added, channel ids removed, user ids of members stored,
// held} for the writer's cross-guild indexes.
var applyScript = redis.NewScript(`
local G, CH, CHP, CHS, CHPIN, RO, M, MR, MG, ML, EM, ST, PR, PL, VO, CK, CKG = unpack(KEYS)
local self = ARGV[1]
local mbound, wholesale = tonumber(ARGV[2]), ARGV[3] == '1'
local pbound, vbound = tonumber(ARGV[4]), tonumber(ARGV[5])
local added, removed, stored = {}, {}, {}
local held = redis.call('EXISTS', G) == 1
local creating = false
local gen = tonumber(redis.call('HGET', G, 'gen') or '0')
local chunkGen = 0

local function dropChannel(id)
  redis.call('HDEL', CH, id)
  redis.call('HDEL', CHP, id)
  redis.call('HDEL', CHS, id)
  redis.call('HDEL', CHPIN, id)
  removed[#removed + 1] = id
end
local function dropMember(uid)
  redis.call('HDEL', M, uid)
  redis.call('HDEL', MR, uid)
  redis.call('HDEL', MG, uid)
  redis.call('ZREM', ML, uid)
end
local function dropUnseen(g)
  local all = redis.call('HGETALL', MG)
  for i = 1, #all, 2 do
    if all[i] ~= self and tonumber(all[i + 1]) ~= g then dropMember(all[i]) end
  end
end
local function tick()
  return redis.call('HINCRBY', G, 'tick', 1)
end
local function evictMembers()
  if mbound <= 0 or redis.call('HLEN', M) <= mbound then return end
  local target = mbound - math.floor(mbound / 8)
  local n = redis.call('HLEN', M)
  for _, uid in ipairs(redis.call('ZRANGE', ML, 0, -1)) do
    if n <= target then break end
    if uid ~= self then
      dropMember(uid)
      n = n - 1
    end
  end
end

local width = {GSET = 5, GUPD = 2, GUNAV = 1, GSTALE = 1, GDEL = 1, CPUT = 4, CDEL = 2, TRESET = 2,
  CPINS = 3, CSTAT = 3, RPUT = 3, RDEL = 2, RRESET = 1, MPUT = 5, MDEL = 2, UPATCH = 3,
  PPUT = 3, PDEL = 2, VPUT = 3, VDEL = 2, CHUNK = 4}

local i = 6
while i <= #ARGV do
  local op = ARGV[i]
  local a, b, c, d = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local w = width[op]
  if op == 'EMOJIS' or op == 'STICKERS' then w = 2 + 2 * tonumber(a) end
  if op == 'GSET' then
    for _, id in ipairs(redis.call('HKEYS', CH)) do removed[#removed + 1] = id end
    redis.call('DEL', RO, CH, CHP, CHS, CHPIN, PR, PL, VO, EM, ST, CK, CKG)
    gen = redis.call('HINCRBY', G, 'gen', 1)
    redis.call('HSET', G, 'v', a, 'joined', b, 'large', c, 'count', d, 'unavail', '0', 'stale', '0')
    held, creating, chunkGen = true, true, 0
  elseif op == 'GUNAV' then
    if not held then redis.call('HSET', G, 'v', '', 'count', '0', 'gen', '0') end
    redis.call('HSET', G, 'unavail', '1', 'stale', '1')
    held = true
  elseif not held then
    -- a guild not held: nothing to change
  elseif op == 'GUPD' then
    redis.call('HSET', G, 'v', a)
  elseif op == 'GSTALE' then
    redis.call('HSET', G, 'stale', '1')
  elseif op == 'GDEL' then
    for _, id in ipairs(redis.call('HKEYS', CH)) do removed[#removed + 1] = id end
    redis.call('DEL', G, RO, CH, CHP, CHS, CHPIN, M, MR, MG, ML, EM, ST, PR, PL, VO, CK, CKG)
    held = false
  elseif op == 'CPUT' then
    redis.call('HSET', CH, a, c)
    if b ~= '' then redis.call('HSET', CHP, a, b) else redis.call('HDEL', CHP, a) end
    redis.call('HDEL', CHPIN, a)
    added[#added + 1] = a
  elseif op == 'CDEL' then
    if redis.call('HEXISTS', CH, a) == 1 then dropChannel(a) end
    local all = redis.call('HGETALL', CHP)
    for j = 1, #all, 2 do
      if all[j + 1] == a then dropChannel(all[j]) end
    end
  elseif op == 'TRESET' then
    local all = redis.call('HGETALL', CHP)
    for j = 1, #all, 2 do
      if a == '*' or string.find(a, ',' .. all[j + 1] .. ',', 1, true) then dropChannel(all[j]) end
    end
  elseif op == 'CPINS' then
    if redis.call('HEXISTS', CH, a) == 1 then redis.call('HSET', CHPIN, a, b) end
  elseif op == 'CSTAT' then
    if redis.call('HEXISTS', CH, a) == 1 then redis.call('HSET', CHS, a, b) end
  elseif op == 'RPUT' then
    redis.call('HSET', RO, a, b)
  elseif op == 'RDEL' then
    redis.call('HDEL', RO, a)
    local all = redis.call('HGETALL', MR)
    local needle = ',' .. a .. ','
    for j = 1, #all, 2 do
      local s, e = string.find(all[j + 1], needle, 1, true)
      if s then redis.call('HSET', MR, all[j], string.sub(all[j + 1], 1, s) .. string.sub(all[j + 1], e + 1)) end
    end
  elseif op == 'RRESET' then
    redis.call('DEL', RO)
  elseif op == 'MPUT' then
    -- a: user id, b: member JSON, c: roles, d: flags (k keep if new,
    -- j join, r resolved, l listed, c chunk)
    local has = redis.call('HEXISTS', M, a) == 1
    if string.find(d, 'j', 1, true) and not has and not creating then redis.call('HINCRBY', G, 'count', 1) end
    local keep = has or a == self or string.find(d, 'k', 1, true)
    if keep and not (has and string.find(d, 'r', 1, true)) then
      local g = gen
      if string.find(d, 'l', 1, true) then
        g = gen
      elseif string.find(d, 'c', 1, true) and chunkGen ~= 0 then
        g = chunkGen
      elseif has then
        g = tonumber(redis.call('HGET', MG, a)) or gen
      end
      redis.call('HSET', M, a, b)
      redis.call('HSET', MR, a, c)
      redis.call('HSET', MG, a, g)
      redis.call('ZADD', ML, tick(), a)
      stored[#stored + 1] = a
      evictMembers()
    end
  elseif op == 'MDEL' then
    if redis.call('HEXISTS', M, a) == 1 then dropMember(a) end
    if tonumber(redis.call('HGET', G, 'count') or '0') > 0 then redis.call('HINCRBY', G, 'count', -1) end
    redis.call('HDEL', PR, a)
    redis.call('ZREM', PL, a)
  elseif op == 'UPATCH' then
    local cur = redis.call('HGET', M, a)
    if cur then
      local m = cjson.decode(cur)
      for k, v in pairs(cjson.decode(b)) do m.User[k] = v end
      redis.call('HSET', M, a, cjson.encode(m))
    end
  elseif op == 'EMOJIS' or op == 'STICKERS' then
    local key = EM
    if op == 'STICKERS' then key = ST end
    redis.call('DEL', key)
    for j = 0, tonumber(a) - 1 do
      redis.call('HSET', key, ARGV[i + 2 + 2 * j], ARGV[i + 3 + 2 * j])
    end
  elseif op == 'PPUT' then
    redis.call('HSET', PR, a, b)
    redis.call('ZADD', PL, tick(), a)
    if pbound > 0 and redis.call('HLEN', PR) > pbound then
      local oldest = redis.call('ZRANGE', PL, 0, 0)[1]
      redis.call('HDEL', PR, oldest)
      redis.call('ZREM', PL, oldest)
    end
  elseif op == 'PDEL' then
    redis.call('HDEL', PR, a)
    redis.call('ZREM', PL, a)
  elseif op == 'VPUT' then
    redis.call('HSET', VO, a, b)
    if vbound > 0 and redis.call('HLEN', VO) > vbound then
      for _, id in ipairs(redis.call('HKEYS', VO)) do
        if id ~= a then
          redis.call('HDEL', VO, id)
          break
        end
      end
    end
  elseif op == 'VDEL' then
    redis.call('HDEL', VO, a)
  elseif op == 'CHUNK' then
    local index, count = tonumber(b), tonumber(c)
    if redis.call('HGET', CK, 'nonce') ~= a then
      gen = redis.call('HINCRBY', G, 'gen', 1)
      redis.call('DEL', CK, CKG)
      redis.call('HSET', CK, 'nonce', a, 'left', count, 'gen', gen, 'count', count)
    end
    if index < tonumber(redis.call('HGET', CK, 'count')) and redis.call('SADD', CKG, index) == 1 then
      redis.call('HINCRBY', CK, 'left', -1)
    end
    chunkGen = tonumber(redis.call('HGET', CK, 'gen'))
  end
  i = i + w
end

if held then
  local ck = redis.call('HMGET', CK, 'nonce', 'left', 'gen')
  if ck[1] and tonumber(ck[2]) == 0 then
    dropUnseen(tonumber(ck[3]))
    redis.call('DEL', CK, CKG)
  end
  if creating then
    local listed = 0
    local all = redis.call('HGETALL', MG)
    for j = 1, #all, 2 do
      if tonumber(all[j + 1]) == gen then listed = listed + 1 end
    end
    local f = redis.call('HMGET', G, 'large', 'count')
    if not (wholesale and (f[1] == '1' or listed < tonumber(f[2]))) then dropUnseen(gen) end
  end
end
local h = 0
if held then h = 1 end
return {added, removed, stored, h}
`)

// readScript reads fields of a guild's hashes at once. KEYS: the guild's
// g, then the hashes; ARGV[1]: the field. It returns false when the guild
// is not held, else {stale (1 or 0), the field of each hash}.
var readScript = redis.NewScript(`
local st = redis.call('HMGET', KEYS[1], 'unavail', 'stale')
if not st[1] then return false end
local out = {0}
if st[1] == '1' or st[2] == '1' then out[1] = 1 end
for i = 2, #KEYS do
  out[i] = redis.call('HGET', KEYS[i], ARGV[1]) or ''
end
return out
`)

// readAllScript reads whole hashes of a guild at once. KEYS: the guild's
// g, then the hashes. It returns false when the guild is not held, else
// {stale, then each hash's field-value list}.
var readAllScript = redis.NewScript(`
local st = redis.call('HMGET', KEYS[1], 'unavail', 'stale')
if not st[1] then return false end
local out = {0}
if st[1] == '1' or st[2] == '1' then out[1] = 1 end
for i = 2, #KEYS do
  out[i] = redis.call('HGETALL', KEYS[i])
end
return out
`)
