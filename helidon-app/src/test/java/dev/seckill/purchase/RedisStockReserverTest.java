package dev.seckill.purchase;

import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Synced;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;
import org.redisson.api.BatchResult;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** The replica count a reservation needs (issue 13). */
class RedisStockReserverTest {

    private static final Sale SALE = new Sale(7, "s", 100, 5, Instant.parse("2030-01-01T10:00:00Z"),
            Instant.parse("2030-01-01T11:00:00Z"));

    private static final ReplicaAcks ONE_REPLICA = new ReplicaAcks(1, Duration.ofMillis(250));

    /** confirm.lua's reply (one reservation) and WAIT's count, run as one batch, as Redisson hands them back. */
    private static void confirmed(long stillThere, int replicasAcked) {
        Synced synced = Synced.of(new BatchResult<>(List.of(List.of(stillThere)), replicasAcked));
        RedisStockReserver.requireReplicated(SALE.id(), 900, synced.replies().getFirst(), synced.replicas(),
                ONE_REPLICA);
    }

    @Test
    void aReservationNoReplicaConfirmedDoesNotStand() {
        assertThrows(ReservationNotReplicated.class, () -> confirmed(1, 0));
    }

    @Test
    void aReservationEnoughReplicasConfirmedStands() {
        confirmed(1, 1);
        confirmed(1, 2);
    }

    @Test
    void aReservationGoneFromItsMasterDoesNotStandWhateverTheReplicasSay() {
        // A failover between the purchase and its confirmation: the promoted master never had it.
        assertThrows(ReservationNotReplicated.class, () -> confirmed(0, 1));
    }
}
