package dev.seckill.identity;

/** Checks a bearer token ({@link TokenVerifier}; {@link VerifiedTokens} in front of it remembers the good ones). */
@FunctionalInterface
public interface TokenCheck {

    Verification verify(String token);
}
