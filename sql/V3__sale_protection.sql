-- Issue 15: a sale's protection against scripted buyers (docs/contract.md, "Protected sales"). Existing sales stay
-- unprotected: 'none' with no difficulty.
ALTER TABLE sale
    ADD COLUMN protection     VARCHAR(16) NOT NULL DEFAULT 'none',
    -- Leading zero bits of the proof of work: 1-32 for 'challenge', 0 otherwise.
    ADD COLUMN challenge_bits TINYINT     NOT NULL DEFAULT 0,
    ADD CONSTRAINT sale_protection_known CHECK (
        (protection = 'challenge' AND challenge_bits BETWEEN 1 AND 32)
        OR (protection IN ('none', 'path') AND challenge_bits = 0));
