package dev.seckill.system.observe;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PromQlNamesTest {

    @Test
    void readsTheMetricNamesAndNotFunctionsLabelsOrRanges() {
        assertEquals(Set.of("seckill_purchases_total"), PromQlNames.of(
                "sum(rate(seckill_purchases_total{outcome=\"UNAVAILABLE\"}[1m]))"
                        + " / sum(rate(seckill_purchases_total[1m])) > 0.05"));
        assertEquals(Set.of("seckill_edge_request_duration_seconds_bucket"), PromQlNames.of(
                "histogram_quantile(0.99, sum by (le, route) (rate(seckill_edge_request_duration_seconds_bucket"
                        + "[$__rate_interval])))"));
        assertEquals(Set.of("seckill_breaker_state"),
                PromQlNames.of("max by (instance, breaker) (seckill_breaker_state) == 1"));
    }

    @Test
    void readsBothSidesOfSetOperatorsAndBareNames() {
        assertEquals(Set.of("a_total", "b_count", "up"), PromQlNames.of(
                "sum(rate(a_total[5m])) > 0 unless sum(rate(b_count{x=\"by (y)\"}[5m])) > 0"
                        + " or up{job=~\"s-.*\"} == 0"));
    }
}
