package dev.seckill.bench.load;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.seckill.testkit.ShopKeys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The bench's stand-in for a shop's identity provider (docs/shop.md): an RSA 2048 and a P-256 key kept in
 * {@code dir/keys.json}, their public halves served as a JWKS by {@link #main} (a JDK HttpServer, as the system
 * tests' ShopSignInIT serves one), and RS256 or ES256 tokens for the bench's buyers. Signing is what a provider
 * pays, not the service: an RS256 signature costs the bench about 1.5 ms of a core, 5 minutes for the large sale's
 * 200,000 buyers, so each algorithm's tokens are kept in {@code dir} and taken again while their key is the one
 * served and they are a day from their {@code exp}.
 */
public final class ShopIdentity {

    /** Where {@link #main} serves the public keys. */
    public static final String JWKS_PATH = "/jwks.json";
    /** Tokens live a week: minted once, used by the runs of the days after (the bench stack checks no issuer). */
    private static final Duration LIFETIME = Duration.ofDays(7);

    private final Path dir;
    private final RSAKey rsa;
    private final ECKey ec;

    private ShopIdentity(Path dir, RSAKey rsa, ECKey ec) {
        this.dir = dir;
        this.rsa = rsa;
        this.ec = ec;
    }

    /** The keys in {@code dir}, made (and the tokens of other keys dropped) when there are none. */
    public static ShopIdentity in(Path dir) throws IOException, JOSEException, ParseException {
        Path file = dir.resolve("keys.json");
        if (Files.exists(file)) {
            JWKSet keys = JWKSet.load(file.toFile());
            return new ShopIdentity(dir, (RSAKey) keys.getKeyByKeyId("bench-rs256"),
                    (ECKey) keys.getKeyByKeyId("bench-es256"));
        }
        ShopIdentity made = new ShopIdentity(dir, ShopKeys.rsa("bench-rs256"), ShopKeys.ec("bench-es256"));
        Files.createDirectories(dir);
        try (var old = Files.newDirectoryStream(dir, "*.tokens")) {
            for (Path p : old) {
                Files.delete(p);
            }
        }
        Path tmp = Files.createTempFile(dir, "keys", ".tmp", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, new JWKSet(List.of(made.rsa, made.ec)).toString(false));
        Files.move(tmp, file);
        return made;
    }

    /** The JWKS the provider serves: the public halves only. */
    public String jwks() {
        return new JWKSet(List.of(rsa, ec)).toPublicJWKSet().toString();
    }

    /**
     * Signed-in buyers {@code first .. first+n-1} with tokens of {@code alg} (RS256 or ES256), {"sub", "iat", "exp"}
     * as the stack's own HS256 tokens; from {@code dir} when kept there, else signed on every core and kept.
     */
    public Users users(JWSAlgorithm alg, long first, int n) throws IOException, JOSEException {
        Path file = dir.resolve(alg.getName().toLowerCase() + "-" + first + "-" + n + ".tokens");
        if (Files.exists(file)) {
            List<String> kept = Files.readAllLines(file, StandardCharsets.US_ASCII);
            if (kept.size() == n && usable(alg, kept.getFirst())) {
                return new Users(first, kept.toArray(String[]::new));
            }
        }
        Instant now = Instant.now();
        String[] tokens = LongStream.range(first, first + n).parallel().mapToObj(u -> sign(alg, u, now))
                .toArray(String[]::new);
        Path tmp = Files.createTempFile(dir, alg.getName(), ".tmp");
        Files.write(tmp, List.of(tokens), StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        return new Users(first, tokens);
    }

    /** Signed with this key, and a day or more from its {@code exp}. */
    private boolean usable(JWSAlgorithm alg, String token) throws JOSEException {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            boolean mine = jwt.verify(alg == JWSAlgorithm.RS256 ? new RSASSAVerifier(rsa) : new ECDSAVerifier(ec));
            Date exp = jwt.getJWTClaimsSet().getExpirationTime();
            return mine && exp != null && exp.toInstant().isAfter(Instant.now().plus(Duration.ofDays(1)));
        } catch (ParseException e) {
            return false;
        }
    }

    /** {@code user}'s token of {@code alg}, issued {@code now}. */
    public String sign(JWSAlgorithm alg, long user, Instant now) {
        return ShopKeys.sign(alg == JWSAlgorithm.RS256 ? rsa : ec, new JWTClaimsSet.Builder()
                .subject(Long.toString(user)).issueTime(Date.from(now)).expirationTime(Date.from(now.plus(LIFETIME)))
                .build());
    }

    /**
     * {@code ShopIdentity DIR PORT PARENT_PID}: serves the JWKS of the keys in DIR (made when none) on
     * 127.0.0.1:PORT{@value #JWKS_PATH} until the process PARENT_PID (bin/seckill's shell) ends. bin/lib/bench.sh
     * runs it before the service that fetches it starts, so the service's first fetch, at its start, succeeds.
     */
    public static void main(String[] args) throws Exception {
        ShopIdentity keys = in(Path.of(args[0]));
        HttpServer server = ShopKeys.serve(Integer.parseInt(args[1]), JWKS_PATH, () -> List.of(keys.rsa, keys.ec),
                () -> { });
        System.out.println("serving the bench's JWKS on " + server.getAddress() + JWKS_PATH);
        ProcessHandle.of(Long.parseLong(args[2])).map(ProcessHandle::onExit).orElseThrow().join();
        server.stop(0);
    }
}
