package dev.seckill.plan;

/** A report the plan cannot use, or a target it cannot meet: one line for the person who asked. */
public final class PlanException extends RuntimeException {

    public PlanException(String message) {
        super(message);
    }
}
