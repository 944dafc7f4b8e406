package dev.seckill.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** One Redis Lua script from the {@code lua/} folder (on the classpath under {@code lua/}), with its SHA-1. */
public enum Script {
    PURCHASE("purchase.lua"),
    COMPENSATE("compensate.lua"),
    CONFIRM("confirm.lua"),
    PREHEAT("preheat.lua"),
    CONSERVE("conserve.lua"),
    RELEASE("release.lua"),
    UNSENT("unsent.lua"),
    SENT("sent.lua"),
    LINE_JOIN("line_join.lua"),
    LINE_ADVANCE("line_advance.lua"),
    STANDING("standing.lua");

    private final String file;
    private final String body;
    private final String sha;

    Script(String file) {
        this.file = file;
        this.body = read(file);
        this.sha = sha1(body);
    }

    public String file() {
        return file;
    }

    public String body() {
        return body;
    }

    /** The SHA-1 Redis knows the script by (EVALSHA). */
    public String sha() {
        return sha;
    }

    private static String read(String file) {
        try (InputStream in = Script.class.getResourceAsStream("/lua/" + file)) {
            if (in == null) {
                throw new IllegalStateException("script lua/" + file + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("failed to read lua/" + file + ": " + e.getMessage(), e);
        }
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
