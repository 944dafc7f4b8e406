package dev.seckill.sale;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/** Sales held in memory, for unit tests of what reads sales. */
public final class FakeSales implements SaleSource {

    private final Map<Long, Sale> sales = new ConcurrentSkipListMap<>();

    public FakeSales add(Sale sale) {
        sales.put(sale.id(), sale);
        return this;
    }

    @Override
    public Optional<Sale> find(long id) {
        return Optional.ofNullable(sales.get(id));
    }

    @Override
    public long maxId() {
        return sales.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    @Override
    public List<Sale> since(long afterId, int limit) {
        return sales.values().stream().filter(s -> s.id() > afterId).limit(limit).toList();
    }

    @Override
    public List<Sale> current(Instant now) {
        return sales.values().stream().filter(s -> s.endsAt().isAfter(now))
                .sorted(Comparator.comparing(Sale::startsAt).thenComparingLong(Sale::id)).toList();
    }
}
