package dev.seckill.line;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LineTicketsTest {

    private static final String SECRET = "a-line-secret-of-at-least-32-bytes!";
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private final LineTickets tickets = new LineTickets(SECRET, Clock.fixed(NOW, ZoneOffset.UTC));
    private final LineTicket ticket = new LineTicket(7, 42, true, 123_456_789L, NOW.getEpochSecond() + 60);

    @Test
    void aSignedTicketChecksOutWithEverythingItCarries() {
        LineTickets.Checked c = tickets.check(tickets.sign(ticket), 7);
        assertNull(c.refusal());
        assertEquals(ticket, c.ticket());
    }

    @Test
    void anAlteredPlaceOrUserIsInvalid() {
        String signed = tickets.sign(ticket);
        assertEquals(LineTickets.Refusal.TICKET_INVALID,
                tickets.check(signed.replace(".p123456789.", ".p1."), 7).refusal());
        assertEquals(LineTickets.Refusal.TICKET_INVALID, tickets.check(signed.replace(".42.", ".43."), 7).refusal());
    }

    @Test
    void anotherSecretsSignatureIsInvalid() {
        LineTickets other = new LineTickets("another-secret-of-at-least-32-bytes", Clock.fixed(NOW, ZoneOffset.UTC));
        assertEquals(LineTickets.Refusal.TICKET_INVALID, tickets.check(other.sign(ticket), 7).refusal());
    }

    @Test
    void anotherSalesTicketIsInvalid() {
        assertEquals(LineTickets.Refusal.TICKET_INVALID, tickets.check(tickets.sign(ticket), 8).refusal());
    }

    @Test
    void aTicketPastItsExpiryIsExpired() {
        LineTicket old = new LineTicket(7, 42, false, 3, NOW.getEpochSecond());
        assertEquals(LineTickets.Refusal.TICKET_EXPIRED, tickets.check(tickets.sign(old), 7).refusal());
    }

    @Test
    void garbageAndNothingAreInvalid() {
        for (String raw : new String[] {null, "", "l1", "l1.7.42.x1.1.abc", "v1.42.1.sig", "l1.07.42.p1.1." + "a".repeat(27)}) {
            assertEquals(LineTickets.Refusal.TICKET_INVALID, tickets.check(raw, 7).refusal(), String.valueOf(raw));
        }
    }

    @Test
    void aShortSecretRefusesToStart() {
        assertThrows(IllegalArgumentException.class, () -> new LineTickets("short", Clock.systemUTC()));
    }
}
