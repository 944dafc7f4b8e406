package dev.seckill.chaos.fault;

/** When a scheduled fault really was injected and healed (epoch milliseconds), as the nemesis saw it. */
public record Window(FaultEvent event, long injectedMillis, long healedMillis) {
}
