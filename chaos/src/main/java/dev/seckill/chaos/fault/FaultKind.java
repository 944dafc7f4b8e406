package dev.seckill.chaos.fault;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The kinds of fault a schedule draws from, as {@code --faults} names them. */
public enum FaultKind {
    KILL, PAUSE, PARTITION;

    /** The command line's name: kill, pause, partition. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FaultKind of(Fault fault) {
        return switch (fault) {
            case Fault.Kill k -> KILL;
            case Fault.Pause p -> PAUSE;
            case Fault.Partition p -> PARTITION;
        };
    }

    /** {@code "kill,pause"} or {@code "all"}; fails naming a kind it does not know. */
    public static Set<FaultKind> parse(String list) {
        if (list == null || list.isBlank() || list.strip().equals("all")) {
            return EnumSet.allOf(FaultKind.class);
        }
        Set<FaultKind> out = EnumSet.noneOf(FaultKind.class);
        for (String s : list.split(",")) {
            String k = s.strip().toUpperCase(Locale.ROOT);
            try {
                out.add(valueOf(k));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown fault kind '" + s.strip() + "' (kill, pause, partition or all)");
            }
        }
        return out;
    }
}
