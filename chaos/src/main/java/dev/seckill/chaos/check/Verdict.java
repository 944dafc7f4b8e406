package dev.seckill.chaos.check;

/** The checker's verdict: the violations it found (none is "no violation") and the documented exceptions. */
public record Verdict() {

    public boolean holds() {
        throw new UnsupportedOperationException("to be written");
    }
}
