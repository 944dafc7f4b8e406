package dev.seckill.chaos.fault;

/**
 * When a scheduled fault really was injected and healed (epoch milliseconds, -1: not done), as the nemesis saw it,
 * and what went wrong injecting or healing it (null: nothing).
 */
public record Window(FaultEvent event, long injectedMillis, long healedMillis, String problem) {

    /** Whether the fault was in force at {@code millis} (a fault not healed: from its injection on). */
    public boolean covers(long millis) {
        return injectedMillis > 0 && millis >= injectedMillis && (healedMillis <= 0 || millis < healedMillis);
    }
}
