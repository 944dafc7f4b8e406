package dev.seckill.identity;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * {@code bin/seckill tokens N [FIRST]}: prints N lines {@code userId<TAB>token} for distinct users FIRST..FIRST+N-1
 * (default 1): HS256 JWTs signed with SECKILL_TOKEN_SECRET ({@link TokenSigner}), which the stack's services take as
 * their HS256 secret, for the load tools and the demo.
 */
public final class TokenCli {

    private TokenCli() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: TokenCli N [FIRST_USER_ID]");
            System.exit(2);
        }
        long n = Long.parseLong(args[0]);
        long first = args.length > 1 ? Long.parseLong(args[1]) : 1;
        String secret = System.getenv("SECKILL_TOKEN_SECRET");
        TokenSigner signer = new TokenSigner(secret, Duration.ofDays(1), Clock.systemUTC());
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        for (long u = first; u < first + n; u++) {
            out.write(u + "\t" + signer.mint(u) + "\n");
        }
        out.flush();
    }
}
