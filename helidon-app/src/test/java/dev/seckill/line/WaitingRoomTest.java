package dev.seckill.line;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.failure.InvalidInput;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WaitingRoomTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static WaitingRoom parse(String body) throws Exception {
        return WaitingRoom.from(JSON.readTree(body));
    }

    @Test
    void aBodyWithoutOneHasNoLine() throws Exception {
        assertNull(parse("{}"));
        assertNull(parse("{\"waitingRoom\":null}"));
    }

    @Test
    void theAdmissionTimeDefaultsToTwoMinutesAndTheRateToFollowing() throws Exception {
        assertEquals(new WaitingRoom(300, 120, null), parse("{\"waitingRoom\":{\"prequeueSeconds\":300}}"));
        assertEquals(new WaitingRoom(0, 10, 50),
                parse("{\"waitingRoom\":{\"prequeueSeconds\":0,\"admitSeconds\":10,\"admitPerSecond\":50}}"));
    }

    @Test
    void eachBadFieldIsNamed() {
        String[][] cases = {
                {"{\"waitingRoom\":5}", "waitingRoom"},
                {"{\"waitingRoom\":{}}", "waitingRoom.prequeueSeconds"},
                {"{\"waitingRoom\":{\"prequeueSeconds\":86401}}", "waitingRoom.prequeueSeconds"},
                {"{\"waitingRoom\":{\"prequeueSeconds\":-1}}", "waitingRoom.prequeueSeconds"},
                {"{\"waitingRoom\":{\"prequeueSeconds\":1,\"admitSeconds\":9}}", "waitingRoom.admitSeconds"},
                {"{\"waitingRoom\":{\"prequeueSeconds\":1,\"admitSeconds\":3601}}", "waitingRoom.admitSeconds"},
                {"{\"waitingRoom\":{\"prequeueSeconds\":1,\"admitPerSecond\":0}}", "waitingRoom.admitPerSecond"},
                {"{\"waitingRoom\":{\"prequeueSeconds\":\"1\"}}", "waitingRoom.prequeueSeconds"},
        };
        for (String[] c : cases) {
            InvalidInput e = assertThrows(InvalidInput.class, () -> parse(c[0]), c[0]);
            assertEquals(c[1], e.field(), c[0]);
        }
    }
}
