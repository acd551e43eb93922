"""The Redis keys and Lua scripts several hall processes share (``cluster.py``).

Every change that more than one process could make at once is one Lua script,
which Redis runs atomically: taking a lease (with a new fencing token from one
counter, so tokens only grow), renewing or releasing only one's own, joining a
queue and taking a table's worth out of it. A group taken out of a queue is, in
the same script, marked seated at its new table and its table leased to the
process that took it, so no concurrent join anywhere can seat one of them twice;
and players whose connection was on a process that died leave the queue first.

Keys (``P`` is the prefix, ``cardhall:`` unless configured):

- ``P lease:{table}`` = ``"{process} {fence}"``, expiring: who runs the table;
- ``P fence``: the counter fencing tokens come from;
- ``P alive:{process}``, expiring: the process is alive; ``P procs``: every process;
- ``P seat:{player}`` = table id: where the player sits;
- ``P presence:{player}`` = ``"{process} {connection}"``: where he is connected;
- ``P q:{room}`` (sorted set, score = when he joined, ms), ``P queued`` (hash player →
  room), ``P qaddr`` (hash player → what he is kept apart by: his address, his
  person): the quick-match queues; ``P codes`` (hash code → table): invite codes;
- ``P count:{process}``, expiring: the tables that process runs, per room (JSON);
- ``P notes:{player}`` (list of JSON messages), expiring: what he missed while away
  (``notes.py``), taken by his next hello through any process;
- ``P job:{name}`` = process, expiring: who does that hall-wide work now; ``P
  job:{name}:progress``: where it has got to (``jobs.py``);
- channel ``P p:{process}``: the typed messages for that process (``peer.py``).
"""

from __future__ import annotations

PREFIX = "cardhall:"


def ms(seconds: float) -> int:
    """Seconds as the scripts and expiring keys take them: whole milliseconds."""
    return int(seconds * 1000)

#: Lua: take the lease KEYS[1] for process ARGV[1] for ARGV[2] ms, a new token from the
#: counter KEYS[2]; a lease the process holds already is kept. Sets ``fence`` (or nil).
_LEASE = """
local function lease(key, counter, proc, ms)
  local held = redis.call('get', key)
  if held then
    local owner, f = string.match(held, '^(%S+) (%d+)$')
    if owner == proc then return tonumber(f) end
    return nil
  end
  local f = redis.call('incr', counter)
  redis.call('set', key, proc .. ' ' .. f, 'PX', ms)
  return f
end
"""

ACQUIRE = _LEASE + "return lease(KEYS[1], KEYS[2], ARGV[1], ARGV[2])"

#: Lua: ACQUIRE for adopting a table whose live game carries token ARGV[3]. If the lease
#: is free but the counter is not above that token (Redis restarted empty), the counter
#: is raised to it and the lease is *not* taken (nil): a live owner sets its lease again
#: with the game's token at its next renewal, instead of finding it briefly taken by a
#: token that cannot write (and dropping the table); if the owner is dead, the next look
#: adopts with a token above the game's.
ADOPT = _LEASE + """
if redis.call('exists', KEYS[1]) == 0
   and tonumber(redis.call('get', KEYS[2]) or '0') < tonumber(ARGV[3]) then
  redis.call('set', KEYS[2], ARGV[3])
  return nil
end
return lease(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
"""

#: Lua: KEYS = this process's ``alive`` key, the token counter, then its leases; ARGV =
#: lease ms, then each lease's value ("{process} {fence}"). Renews ``alive`` and every
#: lease still ours. One whose key expired (nobody took it) is set again with our value,
#: and the counter raised to at least its token. Returns {lost, lapsed}: the indexes
#: (from 1, among the leases) held by another process, and those set again.
RENEW = """
redis.call('set', KEYS[1], '1', 'PX', ARGV[1])
local lost, lapsed = {}, {}
for i = 3, #KEYS do
  local mine = ARGV[i - 1]
  local held = redis.call('get', KEYS[i])
  if held == mine then
    redis.call('pexpire', KEYS[i], ARGV[1])
  elseif held then
    table.insert(lost, i - 2)
  else
    redis.call('set', KEYS[i], mine, 'PX', ARGV[1])
    local f = tonumber(string.match(mine, ' (%d+)$'))
    if tonumber(redis.call('get', KEYS[2]) or '0') < f then redis.call('set', KEYS[2], f) end
    table.insert(lapsed, i - 2)
  end
end
return {lost, lapsed}
"""

#: Lua: raise the counter KEYS[1] to ARGV[1] if it is below (never lowers it).
FLOOR = """
if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then
  redis.call('set', KEYS[1], ARGV[1])
end
return 0
"""

#: Lua: delete KEYS[1] if its value is ARGV[1] (a lease, a seat, a presence of ours).
DELETE_IF = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""

#: Shared by JOIN and TAKE_DUE: take ``group`` out of queue ``q``; seat each member at
#: table ARGV[t] and lease the table to ARGV[proc]. Returns the fencing token.
_TAKE = _LEASE + """
local function take(q, queued, group, prefix, table_id, proc, ms)
  for _, p in ipairs(group) do
    redis.call('zrem', q, p)
    redis.call('hdel', queued, p)
    redis.call('hdel', prefix .. 'qaddr', p)
    redis.call('set', prefix .. 'seat:' .. p, table_id)
  end
  return lease(prefix .. 'lease:' .. table_id, prefix .. 'fence', proc, ms)
end
-- Players whose connection is on no live process leave the queue (theirs died).
local function prune(q, queued, prefix)
  for _, p in ipairs(redis.call('zrange', q, 0, -1)) do
    local where = redis.call('get', prefix .. 'presence:' .. p)
    local proc = where and string.match(where, '^(%S+) ')
    if not proc or redis.call('exists', prefix .. 'alive:' .. proc) == 0 then
      redis.call('zrem', q, p)
      redis.call('hdel', queued, p)
      redis.call('hdel', prefix .. 'qaddr', p)
    end
  end
end
-- The earliest of the queue who share no key (an address, a person: the keys are
-- separated by spaces), at most need (nil: any number): coordinator.apart, the same
-- rule (two accounts of one address or one person never share a table).
local function apart(q, prefix, need)
  local group, seen = {}, {}
  for _, p in ipairs(redis.call('zrange', q, 0, -1)) do
    local a = redis.call('hget', prefix .. 'qaddr', p) or ''
    local clash = false
    for k in string.gmatch(a, '%S+') do
      if seen[k] then clash = true end
    end
    if not clash then
      for k in string.gmatch(a, '%S+') do seen[k] = true end
      group[#group + 1] = p
      if need and #group == need then break end
    end
  end
  return group
end
local function after(q, group)
  local first = redis.call('zrange', q, 0, 0, 'WITHSCORES')
  return {'ok', group, redis.call('zrange', q, 0, -1), first[2] or false}
end
"""

#: Lua: KEYS = queue of the room, ``queued``; ARGV = player, room, need, now (ms), new
#: table id, prefix, process, lease ms, what he is kept apart by
#: (``coordinator.kept_apart``). Refuses a player seated at a live table.
JOIN = _TAKE + """
local player, room, need = ARGV[1], ARGV[2], tonumber(ARGV[3])
local prefix = ARGV[6]
local seat = redis.call('get', prefix .. 'seat:' .. player)
if seat and redis.call('exists', prefix .. 'lease:' .. seat) == 1 then
  return {'seated', seat}
end
local old = redis.call('hget', KEYS[2], player)
if old then redis.call('zrem', prefix .. 'q:' .. old, player) end
redis.call('zadd', KEYS[1], ARGV[4], player)
redis.call('hset', KEYS[2], player, room)
redis.call('hset', prefix .. 'qaddr', player, ARGV[9])
prune(KEYS[1], KEYS[2], prefix)
local group = {}
if redis.call('zcard', KEYS[1]) >= need then
  group = apart(KEYS[1], prefix, need)
  if #group < need then
    group = {}
  else
    take(KEYS[1], KEYS[2], group, prefix, ARGV[5], ARGV[7], ARGV[8])
  end
end
return after(KEYS[1], group)
"""

#: Lua: KEYS = queue, ``queued``; ARGV = wait (ms), now (ms), new table id, prefix,
#: process, lease ms. Everyone waiting (the earliest of each address: ``apart``) leaves
#: as the group once the first waited enough.
TAKE_DUE = _TAKE + """
prune(KEYS[1], KEYS[2], ARGV[4])
local first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
local group = {}
if first[2] and tonumber(first[2]) + tonumber(ARGV[1]) <= tonumber(ARGV[2]) then
  group = apart(KEYS[1], ARGV[4], nil)
  take(KEYS[1], KEYS[2], group, ARGV[4], ARGV[3], ARGV[5], ARGV[6])
end
return after(KEYS[1], group)
"""

#: Lua: KEYS = ``queued``; ARGV = player, room ('' for any), prefix. The room left, or nil.
LEAVE_QUEUE = """
local room = redis.call('hget', KEYS[1], ARGV[1])
if not room or (ARGV[2] ~= '' and room ~= ARGV[2]) then return nil end
redis.call('zrem', ARGV[3] .. 'q:' .. room, ARGV[1])
redis.call('hdel', KEYS[1], ARGV[1])
redis.call('hdel', ARGV[3] .. 'qaddr', ARGV[1])
return room
"""
