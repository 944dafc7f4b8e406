package dev.seckill.http;

import io.helidon.http.Status;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SharedAnswerTest {

    @Test
    void answersComeFromTheOneTableTheEdgeReadsToo() {
        assertEquals(new SharedAnswer(Status.FORBIDDEN_403, "TICKET_EXPIRED", "this line ticket has expired", 0),
                SharedAnswer.TICKET_EXPIRED);
        assertEquals(Status.GONE_410, SharedAnswer.SOLD_OUT.status());
        assertEquals("SOLD_OUT", SharedAnswer.SOLD_OUT.code());
        assertEquals(1, SharedAnswer.ORDER_KEPT.retryAfter());
    }

    @Test
    void aNamedValueIsPutInTheMessage() {
        String m = SharedAnswer.ORDER_KEPT.message("orderId", "123");
        assertEquals("your unit is held for order 123, which the order queue has not acknowledged yet; it is sent "
                + "again by itself: try again shortly to hear it queued", m);
    }

    @Test
    void anAnswerTheTableLacksFailsTheStart() {
        assertThrows(IllegalStateException.class, () -> SharedAnswer.of("no_such_answer"));
    }
}
