package dev.seckill.admin;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminAuthTest {

    @Test
    void anAdminTokenShorterThan24CharactersRefusesToStart() {
        assertThrows(IllegalArgumentException.class, () -> new AdminAuth("x".repeat(23)));
        assertTrue(new AdminAuth("x".repeat(24)).enabled());
    }

    @Test
    void noAdminTokenTurnsTheAdminRoutesOff() {
        assertFalse(new AdminAuth("").enabled());
        assertFalse(new AdminAuth(null).enabled());
    }
}
