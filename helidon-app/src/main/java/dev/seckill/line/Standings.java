package dev.seckill.line;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a ticket's holder stands, by standing.lua run in Redis on the progress as the edge gets it: the edge runs the
 * same file itself on the same progress, so a poll hears the same from either (system-tests' LineAnswersIT compares
 * them field by field). The call reads and writes nothing in Redis; it is routed by the sale's hash tag.
 */
public final class Standings {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ScriptRunner scripts;
    private final LineSettings settings;

    public Standings(ScriptRunner scripts, LineSettings settings) {
        this.scripts = scripts;
        this.settings = settings;
    }

    /** Where {@code t}'s holder stands at {@code now}, the place estimated from the ticket. */
    public Standing of(Sale sale, LineProgress p, LineTicket t, Instant now) {
        return of(sale, p, t, now, null);
    }

    /** As {@link #of(Sale, LineProgress, LineTicket, Instant)}; {@code exact}: the place when it is known. */
    public Standing of(Sale sale, LineProgress p, LineTicket t, Instant now, Long exact) {
        Map<String, Object> ticket = new HashMap<>();
        ticket.put("prequeue", t.prequeue());
        ticket.put("value", t.value());
        ticket.put("exact", exact);
        String answer = scripts.text(Script.STANDING, List.of(Keys.line(sale.id())),
                write(PublishedProgress.of(sale, p, settings)), write(ticket), Long.toString(now.toEpochMilli()));
        return read(answer);
    }

    /** standing.lua's answer (its field names) as a Standing. */
    static Standing read(String answer) {
        JsonNode s;
        try {
            s = JSON.readTree(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("standing.lua answered no JSON: " + answer, e);
        }
        return switch (s.path("code").asText()) {
            case "IN_LINE" -> new Standing.InLine(number(s, "position"), number(s, "ahead"), number(s, "eta"),
                    s.path("refresh").asInt(), instant(s, "draw_at"), s.path("approximate").asBoolean());
            case "WAITLIST" -> new Standing.Waitlist(number(s, "position"), number(s, "ahead"),
                    s.path("returning").asLong(), instant(s, "return_by"), s.path("refresh").asInt(),
                    s.path("approximate").asBoolean());
            case "ADMITTED" -> new Standing.Admitted(Instant.ofEpochMilli(s.path("until_ms").asLong()));
            case "ADMISSION_LAPSED" -> new Standing.Lapsed();
            case "SOLD_OUT" -> new Standing.SoldOut();
            case "SALE_ENDED" -> new Standing.Ended();
            default -> throw new IllegalStateException("standing.lua answered an unknown standing: " + answer);
        };
    }

    private static Long number(JsonNode s, String field) {
        return s.hasNonNull(field) ? s.get(field).asLong() : null;
    }

    private static Instant instant(JsonNode s, String field) {
        return s.hasNonNull(field) ? Instant.parse(s.get(field).asText()) : null;
    }

    private static String write(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("failed to write " + o + ": " + e.getMessage(), e);
        }
    }
}
