package dev.seckill.breaker;

import dev.seckill.failure.DependencyUnavailable;

/**
 * Refused without calling the dependency: its breaker is open. A {@link DependencyUnavailable}, so the client gets
 * the same 503 {@code UNAVAILABLE} with Retry-After as for a failed call, only at once instead of after a timeout.
 */
public final class BreakerOpen extends DependencyUnavailable {

    private final String dependency;

    public BreakerOpen(String dependency) {
        super("the " + dependency + " circuit breaker is open: refused without calling " + dependency);
        this.dependency = dependency;
    }

    public String dependency() {
        return dependency;
    }
}
