-- unsent.lua: record that the send of a reserved order to Kafka failed. The unit stays held: Kafka cannot say
-- whether a send that failed was written, so giving the unit back could sell it twice. The buyer's retry sends the
-- same order again (purchase.lua answers RESEND); reconcile releases the unit only once both the order id and this
-- entry's time are older than its grace and the writer has caught up.
--
-- KEYS[1] {sk:<sale>}:buyers  hash userId -> orderId
-- KEYS[2] {sk:<sale>}:unsent  hash userId -> "<orderId>:<ms of the last send attempt>"
-- ARGV[1] userId
-- ARGV[2] orderId whose send failed
-- ARGV[3] when that send attempt began (epoch ms)
--
-- Returns 1 when recorded, 0 when the buyer's mark is no longer this order (nothing to keep; nothing written).
local buyers_key, unsent_key = KEYS[1], KEYS[2]
local user, order_id, sent_at = ARGV[1], ARGV[2], ARGV[3]

if redis.call('HGET', buyers_key, user) ~= order_id then
  return 0
end
-- A later attempt may have recorded a newer time already (two clicks at once); keep the newest.
local unsent = redis.call('HGET', unsent_key, user)
if unsent then
  local unsent_order, last_send = string.match(unsent, '^(%d+):(%d+)$')
  if unsent_order == order_id and tonumber(last_send) > tonumber(sent_at) then
    return 1
  end
end
redis.call('HSET', unsent_key, user, order_id .. ':' .. sent_at)
return 1
