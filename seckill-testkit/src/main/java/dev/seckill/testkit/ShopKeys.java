package dev.seckill.testkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * A shop's identity provider as the tests and the bench play it (docs/shop.md): an RSA 2048 or P-256 key, tokens it
 * signs (or a forger signs any other way), and its public keys served as a JWKS by a JDK HttpServer.
 */
public final class ShopKeys {

    private ShopKeys() {
    }

    public static RSAKey rsa(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("failed to make an RSA key: " + e.getMessage(), e);
        }
    }

    public static ECKey ec(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("failed to make a P-256 key: " + e.getMessage(), e);
        }
    }

    /** Signed by the key with its own kid: RS256 for an RSA key, ES256 for a P-256 one. */
    public static String sign(JWK key, JWTClaimsSet claims) {
        try {
            return key instanceof RSAKey rsa
                    ? sign(JWSAlgorithm.RS256, key.getKeyID(), new RSASSASigner(rsa), claims)
                    : sign(JWSAlgorithm.ES256, key.getKeyID(), new ECDSASigner((ECKey) key), claims);
        } catch (JOSEException e) {
            throw new IllegalStateException("failed to sign a token: " + e.getMessage(), e);
        }
    }

    /** Signed with {@code alg} by {@code signer}, the header naming {@code kid} (none when null). */
    public static String sign(JWSAlgorithm alg, String kid, JWSSigner signer, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(kid).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("failed to sign a token: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    /**
     * Serves the public halves of {@code keys} (read at each fetch, so a test can rotate them) as a JWKS on
     * 127.0.0.1:{@code port}{@code path} (port 0: any free one); {@code onFetch} hears each fetch. Stop it after use.
     */
    public static HttpServer serve(int port, String path, Supplier<List<JWK>> keys, Runnable onFetch)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext(path, exchange -> {
            onFetch.run();
            byte[] body = new JWKSet(keys.get()).toPublicJWKSet().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }
}
