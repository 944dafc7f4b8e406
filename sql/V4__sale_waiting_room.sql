-- A sale's waiting room (docs/waiting-room.md): how long before the start the line opens, how long an admission
-- lasts, and an optional fixed admission rate. NULL prequeue: the sale has no line (every existing sale).
ALTER TABLE sale
    ADD COLUMN line_prequeue_seconds  INT NULL,
    ADD COLUMN line_admit_seconds     INT NULL,
    ADD COLUMN line_admit_per_second  INT NULL,
    ADD CONSTRAINT sale_line_known CHECK (
        (line_prequeue_seconds IS NULL AND line_admit_seconds IS NULL AND line_admit_per_second IS NULL)
        OR (line_prequeue_seconds BETWEEN 0 AND 86400 AND line_admit_seconds BETWEEN 10 AND 3600
            AND (line_admit_per_second IS NULL OR line_admit_per_second >= 1)));
