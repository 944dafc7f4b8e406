package dev.seckill.chaos.fault;

import java.time.Duration;

/** A fault of the schedule: injected {@code at} after the workload started, healed {@code span} later. */
public record FaultEvent(int number, Fault fault, Duration at, Duration span) {
}
