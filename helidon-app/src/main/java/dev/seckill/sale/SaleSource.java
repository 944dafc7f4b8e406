package dev.seckill.sale;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where sales are read from (the database; a fake in unit tests). */
public interface SaleSource {

    Optional<Sale> find(long id);

    /** The highest sale id that exists, 0 when there is none. */
    long maxId();

    /**
     * Sales whose id is above {@code afterId}, lowest first, at most {@code limit} of them: how an instance learns of
     * sales, including those other instances created.
     */
    List<Sale> since(long afterId, int limit);

    /** Sales that have not ended at {@code now}, soonest first (at most 100). */
    List<Sale> current(Instant now);

    /**
     * Sales running or ended less than a day ago: those whose Redis state may still hold reservations that are not
     * written yet (the writer confirms within seconds; reconcile releases what never arrives).
     */
    default List<Sale> recent(Instant now) {
        return current(now.minus(Duration.ofDays(1)));
    }
}
