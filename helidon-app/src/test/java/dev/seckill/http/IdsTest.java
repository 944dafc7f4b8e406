package dev.seckill.http;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One spelling per id ("+1", full-width and Arabic-Indic digits were all sale 1). */
class IdsTest {

    @Test
    void plainAsciiDigitsWithoutALeadingZeroAreIds() {
        assertEquals(OptionalLong.of(1), Ids.parse("1"));
        assertEquals(OptionalLong.of(42), Ids.parse("42"));
        assertEquals(OptionalLong.of(Long.MAX_VALUE), Ids.parse("9223372036854775807"));
    }

    @Test
    void everyOtherSpellingIsNoId() {
        for (String s : new String[]{null, "", "0", "00", "01", "007", "+1", "-1", " 1", "1 ", "1.0", "1e3", "0x1",
                "\uff11", "\u0661", "\u0967", "1\u0000", "9223372036854775808", "99999999999999999999", "abc"}) {
            assertEquals(OptionalLong.empty(), Ids.parse(s), String.valueOf(s));
        }
    }
}
