package dev.seckill.order;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A second service instance against the test stack's Redis, Kafka and MySQL: the same jar on free ports, its
 * settings in the environment as bin/seckill passes them. For tests of what two instances do at once.
 */
final class SecondService implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(120);

    private final Process process;
    private final Path log;
    private final int port;
    private final int adminPort;

    private SecondService(Process process, Path log, int port, int adminPort) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.adminPort = adminPort;
    }

    /** Starts it with extra settings (environment variables, e.g. SECKILL_EXPIRY_BATCH) and waits until healthy. */
    static SecondService start(Map<String, String> settings) {
        Stack stack = Stack.get();
        int port = freePort();
        int adminPort = freePort();
        Path log = stack.runDir().resolve("service-2-" + port + ".log");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-jar", stack.home().resolve("helidon-app/target/helidon-app.jar").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("SERVER_PORT", Integer.toString(port));
        env.put("ADMIN_PORT", Integer.toString(adminPort));
        env.put("REDIS_ADDRESS", stack.redisAddress());
        env.put("REDIS_PASSWORD", stack.redisPassword());
        env.put("KAFKA_BOOTSTRAP", stack.kafkaBootstrap());
        env.put("DB_URL", stack.jdbcUrl());
        env.put("DB_USER", stack.dbUser());
        env.put("DB_PASSWORD", stack.dbPassword());
        env.put("SECKILL_ADMIN_TOKEN", stack.adminToken());
        env.put("SECKILL_TOKEN_SECRET", stack.tokenSecret());
        env.put("SECKILL_LINE_SECRET", stack.lineSecret());
        env.put("SECKILL_JWT_HS256_SECRET", stack.tokenSecret());
        env.put("SECKILL_EDGE_ADMIN", stack.edgeUrl());
        env.putAll(settings);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("failed to start a second service", e);
        }
        SecondService s = new SecondService(p, log, port, adminPort);
        HttpJson http = new HttpJson();
        try {
            Await.until(START, () -> {
                if (!p.isAlive()) {
                    throw new AssertionError("the second service exited " + p.exitValue() + "; see " + log);
                }
                try {
                    return http.get("http://127.0.0.1:" + adminPort + "/observe/health").status() == 200;
                } catch (UncheckedIOException e) {
                    return false;
                }
            }, "the second service to be healthy (" + log + ")");
        } catch (RuntimeException | AssertionError e) {
            s.close();
            throw e;
        }
        return s;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** This instance's Prometheus metrics (its admin listener). */
    String metrics() {
        return new HttpJson().get("http://127.0.0.1:" + adminPort + "/observe/metrics").body();
    }

    @Override
    public void close() {
        process.destroy();
        Await.until(Duration.ofSeconds(30), () -> !process.isAlive(), "the second service to stop");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("failed to find a free port", e);
        }
    }
}
