package dev.seckill.identity;

/**
 * Why a bearer token was refused: the stable {@code reason} of a 401 {@code UNAUTHENTICATED} answer
 * (docs/contract.md, Identity), with its fixed sentence for people. Checked in this order: the first that applies
 * is the one answered, and the claims are read only once the signature holds.
 */
public enum TokenRefusal {
    TOKEN_MISSING("a valid Authorization: Bearer token is required"),
    MALFORMED("the bearer token is not a signed JWT of at most 4096 characters"),
    ALGORITHM_NOT_ALLOWED("the token's algorithm is not one this service accepts"),
    UNKNOWN_KEY("the token's key is not among the identity provider's keys"),
    BAD_SIGNATURE("the token's signature does not hold"),
    EXPIRY_REQUIRED("the token has no expiry (exp)"),
    TOKEN_EXPIRED("the token has expired"),
    TOKEN_NOT_YET_VALID("the token is not valid yet (nbf)"),
    WRONG_ISSUER("the token was issued by another issuer"),
    WRONG_AUDIENCE("the token is meant for another audience"),
    BAD_USER_CLAIM("the token's user claim is not a positive 64-bit user id");

    private final String message;

    TokenRefusal(String message) {
        this.message = message;
    }

    public String message() {
        return message;
    }
}
