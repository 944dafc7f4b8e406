package dev.seckill.chaos.check;

import dev.seckill.chaos.history.Op;

import java.util.List;

/** Holds every answer of a history against the final state of its sales. */
public final class Checker {

    private Checker() {
    }

    /** The verdict on {@code history} (every operation of the run) given the state read after healing. */
    public static Verdict check(List<Op> history, FinalState state) {
        throw new UnsupportedOperationException("to be written");
    }
}
