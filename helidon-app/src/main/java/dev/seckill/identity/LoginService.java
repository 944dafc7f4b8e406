package dev.seckill.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.http.Answers;
import dev.seckill.failure.InvalidInput;
import dev.seckill.http.JsonBody;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Demo sign-in ({@code POST /api/login {"name":"alice"}}): mints a token for the user the name stands for, with
 * no password: an HS256 JWT of {@link TokenSigner}. Enabled by {@code seckill.demo.login} (on in the local stack, off
 * by default); a real deployment signs its customers in with its own identity provider, whose JWTs the service
 * verifies (docs/shop.md).
 */
public final class LoginService implements HttpService {

    private final TokenSigner signer;

    private static final int MAX_BODY = 4096;

    public LoginService(TokenSigner signer) {
        this.signer = signer;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this::login);
    }

    private void login(ServerRequest req, ServerResponse res) {
        JsonNode body = JsonBody.read(req, MAX_BODY);
        JsonNode name = body == null ? null : body.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank() || name.asText().length() > 64) {
            throw new InvalidInput("name", "name must be a string of 1 to 64 characters");
        }
        long userId = userIdOf(name.asText().strip());
        Answers.json(res, Status.OK_200, Answers.body("userId", userId, "name", name.asText().strip(),
                "token", signer.mint(userId)));
    }

    /** A stable positive id for a demo name (48 bits of its SHA-256, so JavaScript keeps it exact). */
    static long userIdOf(String name) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(name.toLowerCase().getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 6; i++) {
                v = (v << 8) | (h[i] & 0xff);
            }
            return v + 1;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
