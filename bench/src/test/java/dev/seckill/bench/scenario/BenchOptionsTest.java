package dev.seckill.bench.scenario;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {

    @Test
    void defaultsAreTheDefaultFlashSale() {
        BenchOptions o = BenchOptions.parse();
        assertEquals(1000, o.stock());
        assertEquals(100_000, o.users());
        assertEquals(256, o.connections());
    }

    @Test
    void everyOptionIsRead() {
        BenchOptions o = BenchOptions.parse("--stock", "50", "--users", "3000", "--attempts", "2", "--connections", "64",
                "--duration", "30", "--out", "x", "--no-ceilings", "--ceiling-seconds", "3", "--rounds", "1");
        assertEquals(50, o.stock());
        assertEquals(3000, o.users());
        assertEquals(2, o.attempts());
        assertEquals(64, o.connections());
        assertEquals(Duration.ofSeconds(30), o.duration());
        assertEquals(Path.of("x"), o.out());
        assertFalse(o.ceilings());
        assertEquals(Duration.ofSeconds(3), o.ceilingTime());
        assertEquals(1, o.rounds());
    }

    @Test
    void theSoldOutFloodRunsAtThreeConnectionLevelsUnlessToldOtherwise() {
        assertEquals(List.of(1000, 5000, 20_000), BenchOptions.parse().floodLevels());
        assertEquals(Duration.ofSeconds(10), BenchOptions.parse().floodTime());

        BenchOptions o = BenchOptions.parse("--flood-levels", "100, 200", "--flood-seconds", "3");

        assertEquals(List.of(100, 200), o.floodLevels());
        assertEquals(Duration.ofSeconds(3), o.floodTime());
        assertEquals(List.of(), BenchOptions.parse("--flood-levels", "none").floodLevels());
        assertEquals(List.of(), BenchOptions.defaults().with(50, 3000, 3, 64, Duration.ofSeconds(60), Path.of("x"),
                false).floodLevels(), "a test sizes its own run: no flood");
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--flood-levels", "1000,x"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--flood-levels", "0"));
    }

    @Test
    void theLastOfARepeatedOptionCounts() {
        BenchOptions o = BenchOptions.parse("--out", "run/report", "--stock", "5", "--out", "mine", "--stock", "7");
        assertEquals(Path.of("mine"), o.out(), "bin/seckill bench passes its own --out before the caller's");
        assertEquals(7, o.stock());
    }

    @Test
    void badValuesAndUnknownOptionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--stock", "0"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--users", "many"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--stok", "5"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--stock"));
    }

    @Test
    void paymentBehaviourIsOffUnlessARatioIsGiven() {
        assertFalse(BenchOptions.parse().payments());
        BenchOptions o = BenchOptions.parse("--pay-ratio", "0.8", "--pay-window", "2", "--expiry-orders", "3000");
        assertEquals(0.8, o.payRatio());
        assertEquals(Duration.ofSeconds(2), o.payWindow());
        assertEquals(3000, o.expiryOrders());
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--pay-ratio", "1.5"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--pay-window", "0"));
    }

    @Test
    void protectionIsOffUnlessAskedForAndTakesNoValue() {
        assertFalse(BenchOptions.parse().protection());

        BenchOptions o = BenchOptions.parse("--protection", "--stock", "50");

        assertTrue(o.protection());
        assertEquals(50, o.stock(), "the next option is read as usual");
        assertTrue(o.with(50, 3000, 3, 64, Duration.ofSeconds(60), Path.of("x"), false).protection(),
                "a test's resized run keeps it");
        assertTrue(o.paying(0.5, Duration.ofSeconds(60), 0).protection());
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--protection=yes"));
    }

    @Test
    void profileIsOffUnlessAskedForAndTakesNoValue() {
        assertFalse(BenchOptions.parse().profile());

        BenchOptions o = BenchOptions.parse("--stock", "50", "--profile", "--no-ceilings");

        assertTrue(o.profile());
        assertFalse(o.ceilings(), "the next option is read as usual");
        assertTrue(o.with(50, 3000, 3, 64, Duration.ofSeconds(60), Path.of("x"), false).profile());
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--profile", "yes"));
    }

    @Test
    void theSignInCostRunsWithTheLargeSaleUnlessLeftOut() {
        assertTrue(BenchOptions.parse().signIn());
        assertFalse(BenchOptions.parse("--no-sign-in").signIn());
        assertTrue(BenchOptions.parse("--no-sign-in").largeSale(), "the large sale itself still runs");
        assertFalse(BenchOptions.parse("--no-large-sale").signIn(), "it is a run of the large sale");
        assertFalse(BenchOptions.parse().with(50, 3000, 3, 64, Duration.ofSeconds(60), Path.of("x"), false).signIn());
    }

    @Test
    void theScriptGetsWhatItNeedsFromTheOneParserAsShellAssignments() {
        String out = BenchOptions.shell("--reuse", "--no-hot-sale", "--hot-sale-seconds", "4", "--connections", "64",
                "--out", "/tmp/it's here", "--no-large-sale");

        assertEquals(List.of("help=false", "reuse=true", "keep=false", "hot=false", "hot_seconds=4", "connections=64",
                "out='/tmp/it'\\''s here'", "sign_in=false", "jmh='-f 1 -wi 2 -i 5 WriterBatch'", "usage=''"),
                out.lines().toList());
        assertTrue(BenchOptions.shell().contains("out=''\n"), "no --out: the script picks the run's own directory");
        assertTrue(BenchOptions.shell("-h").contains("usage='Usage: bin/seckill bench"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.shell("--hot-sale-seconds", "0"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.shell("--bogus"));
    }

    @Test
    void jmhRunsTheMicroBenchmarksWhoseFiguresTheRunsSectionsQuote() {
        assertTrue(BenchOptions.shell().contains("jmh='-f 1 -wi 2 -i 5 WriterBatch|TokenVerification'\n"));
        assertTrue(BenchOptions.shell("--protection", "--no-sign-in", "--jmh-forks", "2", "--jmh-warmups", "1",
                "--jmh-iterations", "3").contains("jmh='-f 2 -wi 1 -i 3 WriterBatch|ProtectionCheck'\n"));
        assertTrue(BenchOptions.shell("--no-ceilings", "--no-large-sale").contains("jmh=''\n"), "none quoted");
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.shell("--jmh-forks", "0"));
    }
}
