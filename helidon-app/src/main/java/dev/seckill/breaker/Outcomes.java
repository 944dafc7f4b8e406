package dev.seckill.breaker;

/**
 * Records how calls to a dependency ended, without ever refusing one: for a call that must be attempted once
 * started (the Kafka send of a unit already reserved), whose breaker was consulted before the work began.
 */
@FunctionalInterface
public interface Outcomes {

    /** No breaker: the call just runs (unit tests, tools). */
    Outcomes NONE = Runnable::run;

    /** Runs the call and records its success or failure; the call's exception is rethrown as it is. */
    void record(Runnable call);
}
