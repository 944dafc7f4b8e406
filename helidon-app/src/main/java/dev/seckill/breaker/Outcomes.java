package dev.seckill.breaker;

import java.util.function.Supplier;

/**
 * Records how calls to a dependency ended, without ever refusing one: for a call that must be attempted once
 * started (the Kafka send of a unit already reserved), whose breaker was consulted before the work began.
 */
public interface Outcomes {

    /** No breaker: the call just runs (unit tests, tools). */
    Outcomes NONE = Supplier::get;

    /** Runs the call, records its success or failure, and returns its result; its exception is rethrown as it is. */
    <T> T record(Supplier<T> call);
}
