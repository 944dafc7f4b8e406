-- Orders a shopper can pay (issue 14): a payment window per sale, order states, payments, and the outbox of units
-- that lapsed orders give back to Redis. docs/database.md describes every column and who writes it.

-- Seconds a confirmed order may stay unpaid. Fixed at creation, like the rest of a sale.
ALTER TABLE sale
    ADD COLUMN pay_window_seconds INT NOT NULL DEFAULT 900 AFTER ends_at,
    ADD CONSTRAINT sale_pay_window_positive CHECK (pay_window_seconds >= 1);

-- The writer inserts rows as before and they start CONFIRMED (the default). The order must be paid by
-- written_at + the sale's pay_window_seconds (payBy, computed where it is read, on the database's clock); the service
-- moves it to PAID or EXPIRED, each with a conditional UPDATE ... WHERE state = 'CONFIRMED', so exactly one wins.
-- Only CONFIRMED and PAID orders hold a unit: an EXPIRED one gave its unit back to sale.stock in the same transaction.
ALTER TABLE seckill_order
    ADD COLUMN state      VARCHAR(16) NOT NULL DEFAULT 'CONFIRMED',
    ADD COLUMN paid_at    DATETIME(3) NULL,
    ADD COLUMN expired_at DATETIME(3) NULL,
    ADD CONSTRAINT order_state_known CHECK (state IN ('CONFIRMED', 'PAID', 'EXPIRED')),
    -- State first: the expiry finds the sales with CONFIRMED orders, then scans one sale's CONFIRMED orders written
    -- before now - window; the stats count a sale's orders per state. All three walk this index only.
    ADD INDEX ix_order_state_sale_written (state, sale_id, written_at);

-- One payment per order (the primary key): the idempotency key the client sent and what the provider answered.
CREATE TABLE payment (
    order_id        BIGINT       NOT NULL PRIMARY KEY,
    idempotency_key VARCHAR(64)  NOT NULL,
    provider        VARCHAR(32)  NOT NULL,
    reference       VARCHAR(128) NOT NULL,
    amount_cents    BIGINT       NOT NULL,
    paid_at         DATETIME(3)  NOT NULL,
    CONSTRAINT fk_payment_order FOREIGN KEY (order_id) REFERENCES seckill_order (order_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Units to give back to Redis: written in the transaction that expires the order, deleted once release.lua has
-- answered. A crash in between leaves the row, and the next pass (of any instance) runs the idempotent script again.
CREATE TABLE unit_return (
    order_id   BIGINT      NOT NULL PRIMARY KEY,
    sale_id    BIGINT      NOT NULL,
    user_id    BIGINT      NOT NULL,
    created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    CONSTRAINT fk_return_order FOREIGN KEY (order_id) REFERENCES seckill_order (order_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
