package dev.seckill.bench.load;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.Stampede;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.stream.LongStream;

/**
 * The bench's signed-in users {@code first .. first+n-1}, each with a token of the service's own {@link TokenSigner}
 * and its own client address as X-Forwarded-For (believed from loopback: a per-IP bucket each, as real shoppers).
 */
public final class Users {

    private final long first;
    private final String[] tokens;

    /** HS256 tokens of the stack's own secret, as its demo sign-in mints them. */
    public Users(String tokenSecret, long first, int n) {
        this(first, LongStream.range(first, first + n).mapToObj(new TokenSigner(tokenSecret, Duration.ofHours(6),
                Clock.systemUTC())::mint).toArray(String[]::new));
    }

    /** Users {@code first ..} with these tokens, the i-th user's at i (a shop's provider's: {@link ShopIdentity}). */
    public Users(long first, String[] tokens) {
        this.first = first;
        this.tokens = tokens;
    }

    public int size() {
        return tokens.length;
    }

    public long id(int i) {
        return first + i;
    }

    public int index(long id) {
        return (int) (id - first);
    }

    public String token(int i) {
        return tokens[i];
    }

    /** The i-th user's purchase of a sale. */
    public byte[] purchase(int i, long saleId, int edgePort) {
        return request("POST /api/sales/" + saleId + "/purchase", i, edgePort, "");
    }

    /** {@code line} (method and target) signed in as the i-th user from its address, with this JSON body. */
    public byte[] request(String line, int i, int port, String json) {
        return (line + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + tokens[i]
                + "\r\nX-Forwarded-For: " + address(id(i)) + (json.isEmpty() ? "" : "\r\nContent-Type: "
                + "application/json") + "\r\nContent-Length: " + json.length() + "\r\n\r\n" + json)
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    public static String address(long userId) {
        return Stampede.address(userId);
    }

    /** A plain request without identity, e.g. the trivial proxied route. */
    public static byte[] get(String path, int port) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }
}
