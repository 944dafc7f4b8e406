package dev.seckill.chaos.load;

import dev.seckill.chaos.history.History;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.HttpJson;

import java.time.Instant;
import java.util.function.Function;

/**
 * The operator's calls through the test kit's {@link AdminSales}, on a service's admin listener: the first
 * service's, the other one's when it gives no answer or a 5xx (one may be dead, paused or cut off). Creating a sale
 * is an operation of the history.
 */
public final class AdminCalls {

    private final ClusterStack cluster;
    private final AdminSales admin;
    private final History history;
    private final String runId;

    public AdminCalls(ClusterStack cluster, History history, String runId) {
        this.cluster = cluster;
        this.admin = new AdminSales(cluster, new HttpJson());
        this.history = history;
        this.runId = runId;
    }

    /** One answer and the service that gave it. */
    public record Reply(String service, HttpJson.Answer answer) {
    }

    /** A sale selling from now until {@code endsAt}; its id, or -1 when no service created it. */
    public long createSale(String name, int stock, int payWindowSeconds, Instant endsAt) {
        AdminSales.Sale sale = AdminSales.body(name).priceCents(500).stock(stock)
                .startsAt(Instant.now().minusSeconds(1)).endsAt(endsAt).with("payWindowSeconds", payWindowSeconds);
        long id = history.nextId();
        String requestId = runId + "-" + id;
        long start = System.currentTimeMillis();
        Reply r = first(url -> admin.attemptCreate(url, sale, "X-Request-Id", requestId));
        long saleId = r.answer().status() == 201 ? r.answer().json().path("id").asLong(-1) : -1;
        history.record(new Op(id, OpKind.CREATE_SALE, requestId, Math.max(saleId, 0), 0, stock, start,
                System.currentTimeMillis(), r.answer().status(), r.answer().code(), null, r.service(),
                r.answer().contract()));
        return saleId;
    }

    public Reply stats(long saleId) {
        String requestId = runId + "-stats-" + saleId + "-" + System.nanoTime();
        return first(url -> admin.attemptStats(url, saleId, "X-Request-Id", requestId));
    }

    public Reply reconcile(long saleId) {
        String requestId = runId + "-reconcile-" + saleId + "-" + System.nanoTime();
        return first(url -> admin.attemptReconcile(url, saleId, "X-Request-Id", requestId));
    }

    private Reply first(Function<String, HttpJson.Answer> call) {
        Reply last = null;
        for (String s : cluster.nodes("service")) {
            last = new Reply(s, call.apply(cluster.adminUrl(s)));
            if (last.answer().status() != 0 && last.answer().status() < 500) {
                return last;
            }
        }
        return last;
    }
}
