package dev.seckill.chaos;

import dev.seckill.chaos.fault.FaultKind;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line's options as picocli reads them; a bad one is refused with its error before anything runs. */
class ChaosTest {

    @Test
    void faultKindsAreReadInAnyCaseInTheirFixedOrderAndAllByDefault() {
        Chaos given = parse("--faults", "PARTITION,kill", "--minutes", "2.5", "--seed", "7");
        assertEquals(List.of(FaultKind.KILL, FaultKind.PARTITION), List.copyOf(given.faults));
        assertEquals(2.5, given.minutes);
        assertEquals(7, given.seed);
        assertEquals(List.of(FaultKind.values()), List.copyOf(parse().faults));
    }

    @Test
    void anUnknownFaultKindIsRefusedWithOneLineNamingItAndExit2() {
        StringWriter err = new StringWriter();
        CommandLine cli = Chaos.commandLine(new Chaos()).setErr(new PrintWriter(err));
        assertEquals(2, cli.execute("--faults", "kill,bogus"));
        String first = err.toString().lines().findFirst().orElse("");
        assertTrue(first.startsWith("Invalid value for option '--faults' (KIND): expected one of [KILL, PAUSE, "
                + "PARTITION] (case-insensitive) but was 'bogus'"), err.toString());
    }

    @Test
    void aLengthOfZeroIsRefusedWithExit2() {
        assertEquals(2, Chaos.commandLine(new Chaos()).execute("--minutes", "0"));
    }

    private static Chaos parse(String... args) {
        Chaos chaos = new Chaos();
        Chaos.commandLine(chaos).parseArgs(args);
        return chaos;
    }
}
