package dev.seckill.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.failure.InvalidInput;
import dev.seckill.http.Answers;
import dev.seckill.http.SharedAnswer;
import dev.seckill.http.Ids;
import dev.seckill.http.JsonBody;
import dev.seckill.identity.Authenticator;
import dev.seckill.identity.Verification;
import dev.seckill.identity.User;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleCatalog;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;

/**
 * {@code GET /api/sales/{id}/challenge} and {@code POST /api/sales/{id}/path} of protected sales, answered as the
 * "Protected sales" table of docs/contract.md.
 */
public final class ProtectionService implements HttpService {

    private static final int MAX_BODY = 1024;
    private static final int MAX_CHALLENGE_ID = 128;

    private final Authenticator auth;
    private final SaleCatalog catalog;
    private final Protection protection;

    public ProtectionService(Authenticator auth, SaleCatalog catalog, Protection protection) {
        this.auth = auth;
        this.catalog = catalog;
        this.protection = protection;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/{id}/challenge", this::challenge)
                .post("/{id}/path", this::path);
    }

    private void challenge(ServerRequest req, ServerResponse res) {
        answer(req, res, attempt(req, (sale, user) -> protection.challenge(sale, user.id())));
    }

    private void path(ServerRequest req, ServerResponse res) {
        JsonNode body = JsonBody.read(req, MAX_BODY);
        String challengeId = text(body, "challengeId", MAX_CHALLENGE_ID);
        String nonce = nonce(body);
        answer(req, res, attempt(req, (sale, user) -> protection.path(sale, user.id(), challengeId, nonce)));
    }

    private ProtectionOutcome attempt(ServerRequest req, BiFunction<Sale, User, ProtectionOutcome> action) {
        OptionalLong id = Ids.param(req, "id");
        if (id.isEmpty()) {
            return new ProtectionOutcome.SaleNotFound();
        }
        Verification who = auth.verify(req);
        if (who instanceof Verification.Refused refused) {
            return new ProtectionOutcome.Unauthenticated(refused.reason());
        }
        Optional<User> user = who.signedIn();
        Optional<Sale> sale = catalog.find(id.getAsLong());
        return sale.isEmpty() ? new ProtectionOutcome.SaleNotFound() : action.apply(sale.get(), user.get());
    }

    private static String text(JsonNode body, String field, int max) {
        JsonNode n = body == null ? null : body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual() || n.asText().length() > max) {
            throw new InvalidInput(field, field + " must be a string of at most " + max + " characters");
        }
        return n.asText();
    }

    /** A decimal, sent as a JSON string or a JSON integer (a solver's counter fits either). */
    private static String nonce(JsonNode body) {
        JsonNode n = body == null ? null : body.get("nonce");
        if (n == null || n.isNull()) {
            return null;
        }
        String s = n.isIntegralNumber() ? n.asText() : n.isTextual() ? n.asText() : "";
        if (!ProofOfWork.validNonce(s)) {
            throw new InvalidInput("nonce", "nonce must be a decimal of 1 to 19 digits");
        }
        return s;
    }

    /** The one switch from outcome to status, headers and body. */
    private static void answer(ServerRequest req, ServerResponse res, ProtectionOutcome outcome) {
        switch (outcome) {
            case ProtectionOutcome.ChallengeIssued i -> Answers.json(res, Status.OK_200, Answers.body(
                    "challengeId", i.challenge().challengeId(), "algorithm", ProofOfWork.ALGORITHM,
                    "salt", i.challenge().salt(), "bits", i.challenge().bits(),
                    "expiresAt", i.challenge().expiresAt().toString()));
            case ProtectionOutcome.PathIssued p -> Answers.json(res, Status.OK_200, Answers.body(
                    "path", p.path().path(), "expiresAt", p.path().expiresAt().toString()));
            case ProtectionOutcome.SaleNotFound n ->
                    Answers.error(req, res, SharedAnswer.SALE_NOT_FOUND);
            case ProtectionOutcome.Unauthenticated u -> Answers.unauthenticated(req, res, u.reason());
            case ProtectionOutcome.NotProtected n -> Answers.error(req, res, Status.CONFLICT_409, n.code(),
                    n.code().equals("NO_CHALLENGE") ? "this sale has no challenge"
                            : "this sale is bought on the plain purchase route");
            case ProtectionOutcome.NotStarted n -> {
                long seconds = Math.max(1, (n.waitMillis() + 999) / 1000);
                res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
                SharedAnswer a = SharedAnswer.NOT_STARTED;
                Answers.json(res, a.status(), Answers.error(req, a.code(), a.message(),
                        "startsAt", n.startsAt().toString(), "retryAfter", seconds));
            }
            case ProtectionOutcome.SaleEnded e -> Answers.error(req, res, SharedAnswer.SALE_ENDED);
            case ProtectionOutcome.ChallengeFailed f -> Answers.error(req, res, Status.BAD_REQUEST_400, "CHALLENGE_FAILED",
                    "that is not a solution of a challenge issued to you for this sale");
            case ProtectionOutcome.ChallengeUsed u -> Answers.error(req, res, Status.CONFLICT_409, "CHALLENGE_USED",
                    "this challenge was already used; fetch a new one");
            case ProtectionOutcome.ChallengeExpired e -> Answers.error(req, res, Status.GONE_410, "CHALLENGE_EXPIRED",
                    "this challenge has expired; fetch a new one");
        }
    }
}
