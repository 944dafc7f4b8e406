package dev.seckill.testkit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class BodiesTest {

    @Test
    void readsStringAndNumberFieldsOfTheServiceAndTheEdge() {
        assertEquals("QUEUED", Bodies.field("{\"code\":\"QUEUED\",\"orderId\":\"123\",\"saleId\":7}", "code"));
        assertEquals("123", Bodies.field("{\"code\":\"QUEUED\",\"orderId\":\"123\",\"saleId\":7}", "orderId"));
        assertEquals("7", Bodies.field("{\"code\":\"SOLD_OUT\", \"saleId\" : 7}", "saleId"));
    }

    @Test
    void missingFieldsAndMissingBodiesAreNull() {
        assertNull(Bodies.field("{\"code\":\"SOLD_OUT\"}", "orderId"));
        assertNull(Bodies.field(null, "code"));
        assertNull(Bodies.field("not json", "code"));
    }
}
