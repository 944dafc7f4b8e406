package dev.seckill.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Alters a JWT the way a forger would: the payload changed, the header and signature kept. The tests of the
 * service's sign-in and the fuzz use it, so a token that passes after it would be a forgery that worked.
 */
public final class Jwts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Jwts() {
    }

    /** {@code jwt} with the payload's {@code claim} set to the string {@code value}, and the old signature. */
    public static String withClaim(String jwt, String claim, String value) {
        String[] parts = jwt.split("\\.", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a JWS compact serialisation: " + jwt);
        }
        try {
            ObjectNode payload = (ObjectNode) JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            payload.put(claim, value);
            String altered = Base64.getUrlEncoder().withoutPadding().encodeToString(
                    JSON.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8));
            return parts[0] + "." + altered + "." + parts[2];
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException("the JWT's payload is not JSON: " + jwt, e);
        }
    }
}
