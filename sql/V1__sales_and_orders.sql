-- Sales and the orders that won them. Times are UTC (the service sets the session time zone to +00:00).
CREATE TABLE sale (
    id          BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name        VARCHAR(200) NOT NULL,
    price_cents BIGINT       NOT NULL,
    stock_total INT          NOT NULL,
    -- Units not yet taken by a written order; only the batch writer decrements it, guarded by stock >= n.
    stock       INT          NOT NULL,
    -- Optimistic lock: every stock update checks and bumps it.
    version     BIGINT       NOT NULL DEFAULT 0,
    starts_at   DATETIME(3)  NOT NULL,
    ends_at     DATETIME(3)  NOT NULL,
    created_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    CONSTRAINT sale_stock_in_range CHECK (stock >= 0 AND stock <= stock_total),
    CONSTRAINT sale_window_ordered CHECK (ends_at > starts_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE seckill_order (
    order_id    BIGINT      NOT NULL PRIMARY KEY,
    sale_id     BIGINT      NOT NULL,
    user_id     BIGINT      NOT NULL,
    price_cents BIGINT      NOT NULL,
    created_at  DATETIME(3) NOT NULL,
    written_at  DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    -- One per user: the database enforces it too, so a redelivered or forged event cannot add a second row.
    CONSTRAINT uk_order_sale_user UNIQUE (sale_id, user_id),
    CONSTRAINT fk_order_sale FOREIGN KEY (sale_id) REFERENCES sale (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
