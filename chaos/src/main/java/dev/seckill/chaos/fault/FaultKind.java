package dev.seckill.chaos.fault;

import java.util.Locale;

/** The kinds of fault a schedule draws from, as {@code --faults} names them. */
public enum FaultKind {
    KILL, PAUSE, PARTITION;

    /** The command line's name (picocli matches --faults against it): kill, pause, partition. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
