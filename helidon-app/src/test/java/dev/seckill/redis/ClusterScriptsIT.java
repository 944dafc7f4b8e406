package dev.seckill.redis;

import dev.seckill.event.OrderEvent;
import dev.seckill.identity.User;
import dev.seckill.purchase.Attempt;
import dev.seckill.purchase.Decision;
import dev.seckill.purchase.DeliveryTimeout;
import dev.seckill.purchase.EdgeFlags;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.UnsentSales;
import dev.seckill.purchase.OrderIds;
import dev.seckill.purchase.OrderPublisher;
import dev.seckill.purchase.PurchaseMetrics;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.Purchaser;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.purchase.Reopener;
import dev.seckill.purchase.ReservationNotReplicated;
import dev.seckill.purchase.SoldOutFlags;
import dev.seckill.sale.Sale;
import dev.seckill.testkit.Stack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.protocol.RedisCommands;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scripts on a Redis Cluster with replicas and a password: the whole {@link ScriptContract}, plus
 * what only a cluster has: a reservation is on its shard's replica when the purchase returns, one that too few
 * replicas confirmed is given back, a refusal waits for no replica, and a master that forgot the scripts (as a
 * promoted replica does) gets them again on its own. Runs in the cluster test phase (SECKILL_REDIS_NODES: the
 * cluster's nodes as host:port), and fails without it rather than skip.
 */
@Tag("cluster")
class ClusterScriptsIT extends LineScriptContract {

    private static final String REQUEST_ID = "cluster-scripts-it";
    private static final ReplicaAcks ONE_REPLICA = new ReplicaAcks(1, Duration.ofSeconds(2));

    private ClusterNodes nodes;

    @Override
    RedissonClient connect() {
        return RedisClients.connect(null, ClusterNodes.seeds(), Stack.get().redisPassword());
    }

    @BeforeAll
    void openNodes() {
        nodes = new ClusterNodes(ClusterNodes.seeds(), Stack.get().redisPassword());
        assertFalse(nodes.replicas().isEmpty(), "the cluster has replicas");
    }

    @AfterAll
    void closeNodes() {
        nodes.close();
    }

    private RedisStockReserver reserver(ReplicaAcks acks) {
        return new RedisStockReserver(scripts, new LimiterSettings(1.0, 3), acks);
    }

    /** The Redis breakers are per master (ShardBreakers): the client's slot map must name each sale's. */
    @Test
    void theShardMapNamesTheMasterThatServesEachSale() {
        ShardMap shards = ShardMap.of(redis);
        assertEquals(nodes.masters().stream().map(n -> hostPort(n.address())).collect(Collectors.toSet()),
                shards.masters());
        for (int i = 0; i < 12; i++) {
            Sale sale = preheated(1);
            assertEquals(hostPort(nodes.masterOf(Keys.stock(sale.id())).address()), shards.masterOf(sale.id()));
        }
    }

    private static String hostPort(String redisUri) {
        return redisUri.replaceFirst("^redis://", "");
    }

    @Test
    void aSyncedReservationIsOnItsShardsReplicaWhenTheCallReturns() {
        Sale sale = preheated(3);
        assertEquals(new PurchaseOutcome.Queued("700"), reserver(ONE_REPLICA).reserve(sale, 7, 700, START + 1));
        // No wait of our own: the replica must have it already, or the 202 would rest on the master alone.
        List<ClusterNodes.Node> replicas = nodes.replicasOf(Keys.stock(sale.id()));
        assertFalse(replicas.isEmpty(), "the sale's master has a replica");
        for (ClusterNodes.Node r : replicas) {
            assertEquals(Optional.of("700"), r.read(RedisCommands.HGET, Keys.buyers(sale.id()), "7"), r.address());
            assertEquals(Optional.of("2"), r.read(RedisCommands.GET, Keys.stock(sale.id())), r.address());
        }
    }

    @Test
    void aCallsReservationsAreConfirmedTogetherAndEachStandsOrFallsAlone() {
        Sale sale = preheated(2);
        List<Decision> d = reserver(ONE_REPLICA).decide(List.of(attempt(sale, 1, 101),
                attempt(sale, 2, 102), attempt(sale, 3, 103)));
        assertEquals(new PurchaseOutcome.Queued("101"), d.get(0).get());
        assertEquals(new PurchaseOutcome.Queued("102"), d.get(1).get());
        assertEquals(new PurchaseOutcome.SoldOut(false), d.get(2).get());
        for (ClusterNodes.Node r : nodes.replicasOf(Keys.stock(sale.id()))) {
            assertEquals(Optional.of("102"), r.read(RedisCommands.HGET, Keys.buyers(sale.id()), "2"), r.address());
            assertEquals(Optional.of("0"), r.read(RedisCommands.GET, Keys.stock(sale.id())), r.address());
        }
        // More replicas than the shard has: each reservation of the call fails alone, the refusal beside it stands.
        Sale other = preheated(2);
        int shardReplicas = nodes.replicasOf(Keys.stock(other.id())).size();
        RedisStockReserver demanding = reserver(new ReplicaAcks(shardReplicas + 1, Duration.ofMillis(100)));
        List<Decision> unconfirmed = demanding.decide(List.of(attempt(other, 1, 101), attempt(other, 1, 102), attempt(other, 2, 201)));
        assertThrows(ReservationNotReplicated.class, unconfirmed.get(0)::get);
        assertEquals(new PurchaseOutcome.AlreadyPurchased("101"), unconfirmed.get(1).get());
        assertThrows(ReservationNotReplicated.class, unconfirmed.get(2)::get);
    }

    private static Attempt attempt(Sale sale, long userId, long orderId) {
        return new Attempt(sale, userId, orderId, START + 1);
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderStillBeingDecidedIsNamedOnceItStandsOnItsReplica() {
        Sale sale = preheated(2);
        long first = new OrderIds(Clock.fixed(Instant.ofEpochMilli(START + 1), ZoneOffset.UTC), 1).next();
        assertEquals(new PurchaseOutcome.Queued(Long.toString(first)),
                reserver(ONE_REPLICA).reserve(sale, 7, first, START + 1));
        // A second click 50 ms before the first purchase has decided (its replica timeout of 2 s plus the 1 s
        // margin): it waits for that decision, confirm.lua finds the mark and WAIT its replica.
        long second = START + 1 + 2_000 + 1_000 - 50;
        assertEquals(new PurchaseOutcome.AlreadyPurchased(Long.toString(first)),
                reserver(ONE_REPLICA).reserve(sale, 7, first + 1, second));
    }

    @Test
    void aRefusalNeedsNoReplica() {
        Sale sale = preheated(1);
        assertInstanceOf(PurchaseOutcome.Queued.class, reserver.reserve(sale, 1, 101, START + 1));
        // More replicas than there are: a reservation could never stand, but a refusal waits for none.
        int shardReplicas = nodes.replicasOf(Keys.stock(sale.id())).size();
        RedisStockReserver demanding = reserver(new ReplicaAcks(shardReplicas + 1, Duration.ofSeconds(5)));
        assertEquals(new PurchaseOutcome.SoldOut(false), demanding.reserve(sale, 2, 102, START + 2));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("101"), demanding.reserve(sale, 1, 103, START + 3));
    }

    @Test
    void aReservationTooFewReplicasConfirmedIsGivenBackAndNeverPublished() {
        Sale sale = preheated(2);
        // More replicas than the shard has: WAIT returns short after its timeout, as with a dead or lagging replica.
        int shardReplicas = nodes.replicasOf(Keys.stock(sale.id())).size();
        RedisStockReserver demanding = reserver(new ReplicaAcks(shardReplicas + 1, Duration.ofMillis(100)));
        Clock clock = Clock.fixed(Instant.ofEpochMilli(START + 1), ZoneOffset.UTC);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer());
        SoldOutFlags flags = new SoldOutFlags(clock, 1000);
        Purchaser purchaser = new Purchaser(demanding, ledger,
                new OrderPublisher(producer, OrderEvent.TOPIC, new DeliveryTimeout(Duration.ofSeconds(5))),
                new OrderIds(clock, 1), flags, new Reopener(flags, new EdgeFlags("", registry)),
                new PurchaseMetrics(registry), new UnsentSales(), clock);

        assertThrows(ReservationNotReplicated.class, () -> purchaser.attempt(sale, new User(2), REQUEST_ID));
        assertTrue(producer.history().isEmpty(), "no order");
        assertEquals(2L, stock.remaining(sale.id()), "the unit came back");
        assertEquals(Optional.empty(), marks.order(sale.id(), 2), "the buyer may try again");
    }

    @Test
    void aMasterThatForgotTheScriptsGetsThemAgainAndOnlyIt() {
        Sale sale = preheated(2);
        // Every master forgets, as a replica promoted after a failover starts (SCRIPT LOAD is not replicated).
        nodes.masters().forEach(m -> m.read(RedisCommands.SCRIPT_FLUSH));
        try {
            assertInstanceOf(PurchaseOutcome.Queued.class, reserver(ONE_REPLICA).reserve(sale, 1, 101, START + 1));
            assertInstanceOf(PurchaseOutcome.Queued.class, reserver.reserve(sale, 2, 102, START + 2));
            ClusterNodes.Node owner = nodes.masterOf(Keys.stock(sale.id()));
            for (ClusterNodes.Node m : nodes.masters()) {
                List<Boolean> loaded = m.<List<Boolean>>read(RedisCommands.SCRIPT_EXISTS, Script.PURCHASE.sha(),
                        Script.CONFIRM.sha()).orElseThrow();
                assertEquals(List.of(m.equals(owner), m.equals(owner)), loaded,
                        m.address() + " (the sale's master: " + owner.address() + ")");
            }
        } finally {
            scripts.loadAll();
        }
    }
}
