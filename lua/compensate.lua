-- compensate.lua: give back the unit of a reservation that must not become an order (its replicas never confirmed
-- it, or reconcile found it never written). Idempotent: it acts only while the buyer's recorded order id is the one
-- being undone, so a second call, or a call for another order, changes nothing. It removes the buyer's unsent entry
-- with the mark, so no resend of an order that no longer holds a unit can follow.
--
-- KEYS[1] {sk:<sale>}:stock   remaining units
-- KEYS[2] {sk:<sale>}:buyers  hash userId -> orderId
-- KEYS[3] {sk:<sale>}:unsent  hash userId -> "<orderId>:<ms of the last send attempt>"
-- ARGV[1] userId
-- ARGV[2] orderId to undo
-- ARGV[3] sent before (epoch ms): act only if the order's last send attempt, as its unsent entry records it, began
--         before this; reconcile passes now - grace, so a resend that began after it read the entry wins
--
-- Returns the remaining stock after the undo (>= 1), -1 when there was nothing to undo, -2 when the order was sent
-- again too recently (nothing changed).
local stock_key, buyers_key, unsent_key = KEYS[1], KEYS[2], KEYS[3]
local user, order_id, sent_before = ARGV[1], ARGV[2], tonumber(ARGV[3])

if redis.call('HGET', buyers_key, user) ~= order_id then
  return -1
end
local unsent = redis.call('HGET', unsent_key, user)
if unsent then
  local unsent_order, last_send = string.match(unsent, '^(%d+):(%d+)$')
  if unsent_order == order_id and tonumber(last_send) >= sent_before then
    return -2
  end
end
redis.call('HDEL', buyers_key, user)
redis.call('HDEL', unsent_key, user)
return redis.call('INCR', stock_key)
