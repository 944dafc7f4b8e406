package dev.seckill.protection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.failure.InvalidInput;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SaleProtectionTest {

    private static JsonNode json(String s) throws Exception {
        return new ObjectMapper().readTree(s);
    }

    private static String field(String body) {
        return assertThrows(InvalidInput.class, () -> SaleProtection.from(json(body))).field();
    }

    @Test
    void aBodyWithoutProtectionIsUnprotected() throws Exception {
        assertEquals(SaleProtection.NONE, SaleProtection.from(json("{}")));
        assertEquals(SaleProtection.NONE, SaleProtection.from(json("{\"protection\":\"none\"}")));
    }

    @Test
    void aChallengeTakesItsBitsOrTheDefault() throws Exception {
        assertEquals(new SaleProtection(SaleProtection.Mode.CHALLENGE, SaleProtection.DEFAULT_BITS),
                SaleProtection.from(json("{\"protection\":\"challenge\"}")));
        assertEquals(new SaleProtection(SaleProtection.Mode.CHALLENGE, 1),
                SaleProtection.from(json("{\"protection\":\"challenge\",\"challengeBits\":1}")));
        assertEquals(new SaleProtection(SaleProtection.Mode.CHALLENGE, 32),
                SaleProtection.from(json("{\"protection\":\"challenge\",\"challengeBits\":32}")));
        assertEquals(new SaleProtection(SaleProtection.Mode.PATH, 0), SaleProtection.from(json("{\"protection\":\"path\"}")));
    }

    @Test
    void badValuesAre400sNamingTheField() {
        assertEquals("protection", field("{\"protection\":\"captcha\"}"));
        assertEquals("protection", field("{\"protection\":\"CHALLENGE\"}"));
        assertEquals("protection", field("{\"protection\":1}"));
        assertEquals("challengeBits", field("{\"protection\":\"challenge\",\"challengeBits\":0}"));
        assertEquals("challengeBits", field("{\"protection\":\"challenge\",\"challengeBits\":33}"));
        assertEquals("challengeBits", field("{\"protection\":\"challenge\",\"challengeBits\":\"8\"}"));
        assertEquals("challengeBits", field("{\"protection\":\"path\",\"challengeBits\":8}"));
        assertEquals("challengeBits", field("{\"challengeBits\":8}"));
    }

    @Test
    void theStoredSpellingIsTheApiSpelling() {
        SaleProtection p = new SaleProtection(SaleProtection.Mode.CHALLENGE, 9);
        assertEquals("challenge", p.wire());
        assertEquals(p, SaleProtection.stored(p.wire(), p.bits()));
    }
}
