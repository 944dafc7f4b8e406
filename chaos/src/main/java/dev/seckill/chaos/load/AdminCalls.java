package dev.seckill.chaos.load;

import dev.seckill.chaos.history.History;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.ClusterStack;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator's calls, on a service's admin listener: the first service's, the other one's when it gives no
 * answer or a 5xx (one may be dead, paused or cut off). Creating a sale is an operation of the history.
 */
public final class AdminCalls {

    private final ClusterStack cluster;
    private final Client client;
    private final History history;
    private final String runId;
    private final String bearer;

    public AdminCalls(ClusterStack cluster, Client client, History history, String runId) {
        this.cluster = cluster;
        this.client = client;
        this.history = history;
        this.runId = runId;
        this.bearer = "Bearer " + cluster.adminToken();
    }

    /** One answer and the service that gave it. */
    public record Reply(String service, Client.Answer answer) {
    }

    /** A sale selling from now until {@code endsAt}; its id, or -1 when no service created it. */
    public long createSale(String name, int stock, int payWindowSeconds, Instant endsAt) {
        // The body comes from the test kit; the sending stays here (failover between services, the history's record).
        String body = AdminSales.body(name).priceCents(500).stock(stock).startsAt(Instant.now().minusSeconds(1))
                .endsAt(endsAt).with("payWindowSeconds", payWindowSeconds).body().toString();
        long id = history.nextId();
        String requestId = runId + "-" + id;
        long start = System.currentTimeMillis();
        Reply r = first(s -> client.post(cluster.adminUrl(s) + "/admin/sales", body, requestId, "Authorization", bearer));
        long saleId = r.answer().status() == 201 ? r.answer().body().path("id").asLong(-1) : -1;
        history.record(new Op(id, OpKind.CREATE_SALE, requestId, Math.max(saleId, 0), 0, stock, start,
                System.currentTimeMillis(), r.answer().status(), r.answer().code(), null, r.service(),
                r.answer().contract()));
        return saleId;
    }

    public Reply stats(long saleId) {
        String requestId = runId + "-stats-" + saleId + "-" + System.nanoTime();
        return first(s -> client.get(cluster.adminUrl(s) + "/admin/sales/" + saleId + "/stats", requestId,
                "Authorization", bearer));
    }

    public Reply reconcile(long saleId) {
        String requestId = runId + "-reconcile-" + saleId + "-" + System.nanoTime();
        return first(s -> client.post(cluster.adminUrl(s) + "/admin/sales/" + saleId + "/reconcile", null, requestId,
                "Authorization", bearer));
    }

    private interface Call {
        Client.Answer on(String service);
    }

    private Reply first(Call call) {
        List<String> services = new ArrayList<>(cluster.nodes("service"));
        Reply last = null;
        for (String s : services) {
            Client.Answer a = call.on(s);
            last = new Reply(s, a);
            if (a.status() != 0 && a.status() < 500) {
                return last;
            }
        }
        return last;
    }
}
