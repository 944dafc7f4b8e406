package dev.seckill.line;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.failure.InvalidInput;

import java.time.Duration;
import java.time.Instant;

/**
 * A sale's waiting room (docs/waiting-room.md): the line opens {@code prequeueSeconds} before the start, an
 * admission lasts {@code admitSeconds}, and the line admits {@code admitPerSecond} buyers a second when that is set,
 * else as fast as the admitted buyers use their admissions (the rate the service takes purchases).
 *
 * @param admitPerSecond a fixed admission rate, or null to follow the service
 */
public record WaitingRoom(int prequeueSeconds, int admitSeconds, Integer admitPerSecond) {

    public static final int MAX_PREQUEUE_SECONDS = 86_400;
    public static final int MIN_ADMIT_SECONDS = 10;
    public static final int MAX_ADMIT_SECONDS = 3_600;
    /** Two minutes: time to see the admission, solve a challenge, and buy, with a retry or two after a 429. */
    public static final int DEFAULT_ADMIT_SECONDS = 120;
    public static final int MAX_ADMIT_PER_SECOND = 1_000_000;

    public WaitingRoom {
        if (prequeueSeconds < 0 || prequeueSeconds > MAX_PREQUEUE_SECONDS || admitSeconds < MIN_ADMIT_SECONDS
                || admitSeconds > MAX_ADMIT_SECONDS || (admitPerSecond != null && admitPerSecond < 1)) {
            throw new IllegalArgumentException("not a waiting room: " + prequeueSeconds + ", " + admitSeconds + ", "
                    + admitPerSecond);
        }
    }

    /** The optional {@code waitingRoom} object of an admin create body (null when absent); every problem is a 400. */
    public static WaitingRoom from(JsonNode body) {
        JsonNode room = body.get("waitingRoom");
        if (room == null || room.isNull()) {
            return null;
        }
        if (!room.isObject()) {
            throw new InvalidInput("waitingRoom", "waitingRoom must be an object {prequeueSeconds, admitSeconds,"
                    + " admitPerSecond}");
        }
        int prequeue = integer(room, "prequeueSeconds", 0, MAX_PREQUEUE_SECONDS, null);
        int admit = integer(room, "admitSeconds", MIN_ADMIT_SECONDS, MAX_ADMIT_SECONDS, DEFAULT_ADMIT_SECONDS);
        JsonNode rate = room.get("admitPerSecond");
        Integer perSecond = rate == null || rate.isNull() ? null
                : integer(room, "admitPerSecond", 1, MAX_ADMIT_PER_SECOND, null);
        return new WaitingRoom(prequeue, admit, perSecond);
    }

    private static int integer(JsonNode room, String field, int min, int max, Integer fallback) {
        JsonNode n = room.get(field);
        if ((n == null || n.isNull()) && fallback != null) {
            return fallback;
        }
        if (n == null || !n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < min || n.asInt() > max) {
            throw new InvalidInput("waitingRoom." + field, "waitingRoom." + field + " must be an integer from " + min
                    + " to " + max);
        }
        return n.asInt();
    }

    /** When the line opens for a sale that starts at {@code startsAt}. */
    public Instant opensAt(Instant startsAt) {
        return startsAt.minusSeconds(prequeueSeconds);
    }

    public Duration admission() {
        return Duration.ofSeconds(admitSeconds);
    }
}
