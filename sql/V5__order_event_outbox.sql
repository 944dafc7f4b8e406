-- The transactional outbox of order events (docs/database.md, docs/kafka.md): each change of an order's state writes
-- one row here in the very transaction that makes the change (the writer's insert, the pay, the expiry, a unit's
-- return), so an event exists exactly when its change was committed. The writer's relay publishes the rows to
-- seckill.order-events in seq order and deletes each only after Kafka acknowledged it.
CREATE TABLE order_event (
    -- The relay's order. An order's changes are made one after another (each reads the committed one before it), so
    -- its events get increasing numbers, whatever other orders' transactions interleave.
    seq         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id    BIGINT       NOT NULL,
    sale_id     BIGINT       NOT NULL,
    user_id     BIGINT       NOT NULL,
    -- What happened: CONFIRMED, PAID, EXPIRED or UNIT_RETURNED; the event id is (order_id, type).
    type        VARCHAR(16)  NOT NULL,
    -- The order's state after it (an expired order's returned unit leaves it EXPIRED).
    state       VARCHAR(16)  NOT NULL,
    occurred_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    -- The X-Request-Id of the request that made the change; NULL for the expiry, which no request makes.
    request_id  VARCHAR(64)  NULL,
    -- Each change happens once per order: a second row would be a bug (or a replay) and is refused.
    CONSTRAINT uk_order_event_change UNIQUE (order_id, type),
    CONSTRAINT order_event_type_known CHECK (type IN ('CONFIRMED', 'PAID', 'EXPIRED', 'UNIT_RETURNED')),
    CONSTRAINT order_event_state_known CHECK (state IN ('CONFIRMED', 'PAID', 'EXPIRED'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- One row: the relay that holds its lock (SELECT ... FOR UPDATE SKIP LOCKED, for one batch's transaction) is the
-- only one publishing, so several writer instances never reorder an order's events; the others stand by.
CREATE TABLE order_event_relay (
    name VARCHAR(32) NOT NULL PRIMARY KEY
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
INSERT INTO order_event_relay (name) VALUES ('order-events');
