package dev.seckill.line;

import dev.seckill.purchase.Admission;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.PurchaseService;
import dev.seckill.sale.Sale;

import java.time.Clock;
import java.time.Instant;

/**
 * The service's own check of a waiting-room sale's purchase (the edge checks the same first): the buyer's own ticket,
 * validly signed, for this sale, and admitted within its admission time. A sold-out or ended line lets the purchase
 * go on, so that Redis answers it SOLD_OUT or SALE_ENDED as it does every other.
 */
public final class LineAdmission implements Admission {

    private final Lines lines;
    private final LineTickets tickets;
    private final Standings standings;
    private final Clock clock;

    public LineAdmission(Lines lines, LineTickets tickets, Standings standings, Clock clock) {
        this.lines = lines;
        this.tickets = tickets;
        this.standings = standings;
        this.clock = clock;
    }

    @Override
    public PurchaseOutcome refusal(Sale sale, long userId, String raw) {
        if (sale.waitingRoom() == null) {
            return null;
        }
        if (raw == null) {
            return new PurchaseOutcome.NotAdmitted(null, null, lines.settings().interval().toMillis());
        }
        LineTickets.Checked c = tickets.check(raw, sale.id());
        if (c.refusal() != null) {
            return new PurchaseOutcome.TicketRefused(c.refusal().name());
        }
        if (c.ticket().userId() != userId) {
            return new PurchaseOutcome.TicketRefused(PurchaseService.TICKET_INVALID);
        }
        Instant now = clock.instant();
        Standing s = standings.of(sale, lines.progress(sale), c.ticket(), now);
        if (s instanceof Standing.InLine) {
            // The edge may have learned of the admission a moment before this instance: look again, sooner.
            s = standings.of(sale, lines.fresh(sale), c.ticket(), now);
        }
        return switch (s) {
            case Standing.Admitted a -> null;
            case Standing.SoldOut so -> null;
            case Standing.Ended e -> null;
            case Standing.Lapsed l -> new PurchaseOutcome.NotAdmitted(null, null,
                    lines.settings().interval().toMillis());
            case Standing.InLine l -> new PurchaseOutcome.NotAdmitted(l.position(), l.ahead(),
                    l.refreshSeconds() * 1000L);
            case Standing.Waitlist w -> new PurchaseOutcome.NotAdmitted(w.position(), w.ahead(),
                    w.refreshSeconds() * 1000L);
        };
    }
}
