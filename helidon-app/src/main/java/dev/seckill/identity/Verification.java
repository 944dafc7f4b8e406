package dev.seckill.identity;

import java.time.Instant;
import java.util.Optional;

/** What checking a bearer token comes to: its user, or why it was refused. */
public sealed interface Verification {

    /** A token whose signature and claims hold: its user, and its {@code exp} (no cache keeps it longer). */
    record Verified(User user, Instant expires) implements Verification {
    }

    /** A token refused (401): {@code reason} is the answer's stable reason. */
    record Refused(TokenRefusal reason) implements Verification {
    }

    /** The user of a verified token; empty for a refused one. */
    default Optional<User> signedIn() {
        return this instanceof Verified v ? Optional.of(v.user()) : Optional.empty();
    }
}
