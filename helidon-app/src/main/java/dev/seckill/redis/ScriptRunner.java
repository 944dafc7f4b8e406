package dev.seckill.redis;

import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs the scripts of {@link Script} by EVALSHA through Redisson with a String codec. Scripts are loaded once at
 * start, on every master. When the node that holds a call's keys has forgotten them, the NOSCRIPT answer is caught,
 * the script is loaded on that node and the call retried once: after a restart, a SCRIPT FLUSH, or a failover
 * (Redis 7 does not replicate SCRIPT LOAD, so a promoted replica starts without the scripts).
 *
 * <p>Every call waits at most {@code limit} for Redisson's answer, past which it fails as a timeout (an answer lost,
 * which the purchase path asks after): Redisson's own timeouts end a command well before, but a future it never
 * completes (its lazy start and reconnects have had such bugs) must not hold the caller, nor the buyers of a sale
 * queued behind that caller's call ({@code SaleBatches}), for ever.
 */
public final class ScriptRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ScriptRunner.class);

    private final RedissonClient redis;
    private final RScript script;
    private final Duration limit;

    /** With the limit of the default settings ({@link RedisClients#commandLimit}). */
    public ScriptRunner(RedissonClient redis) {
        this(redis, RedisClients.commandLimit(RedisClients.defaults()));
    }

    /** @param limit the longest a call waits for Redisson's answer, timeouts and retries included */
    public ScriptRunner(RedissonClient redis, Duration limit) {
        this.redis = redis;
        this.script = redis.getScript(StringCodec.INSTANCE);
        this.limit = limit;
    }

    /** Loads every script on every master; a Redis that is down now is not fatal (calls load on demand). */
    public void loadAll() {
        for (Script s : Script.values()) {
            try {
                check(s, await(s, script.scriptLoadAsync(s.body())));
            } catch (RuntimeException e) {
                LOG.warn("failed to load " + s.file() + " at start (will load on first use): "
                        + e.getMessage());
            }
        }
    }

    /** Runs a script that returns an array: integers come back as Long, strings as String. */
    public List<Object> list(Script s, List<Object> keys, Object... args) {
        return reloading(s, keys, () -> await(s, script.evalShaAsync(key(keys), RScript.Mode.READ_WRITE, s.sha(),
                RScript.ReturnType.LIST, keys, args)));
    }

    /** Runs a script that returns a string. */
    public String text(Script s, List<Object> keys, Object... args) {
        return reloading(s, keys, () -> await(s, script.<String>evalShaAsync(key(keys), RScript.Mode.READ_WRITE,
                s.sha(), RScript.ReturnType.VALUE, keys, args)));
    }

    /** Runs a script that returns an integer. */
    public long number(Script s, List<Object> keys, Object... args) {
        Long r = reloading(s, keys, () -> await(s, script.<Long>evalShaAsync(key(keys), RScript.Mode.READ_WRITE,
                s.sha(), RScript.ReturnType.LONG, keys, args)));
        return r;
    }

    /**
     * Runs a script that returns an array of integers, then waits until {@code acks.required()} replicas of its node
     * have the connection's writes, or {@code acks.timeout()} passed. The script and WAIT share one connection, in
     * this order, because WAIT counts only the writes of its own connection (WAIT inside the script would not block).
     * Redisson adds the WAIT timeout to the batch's response timeout, so a slow replica is a low count, not a client
     * timeout.
     */
    public Synced listSynced(Script s, List<Object> keys, ReplicaAcks acks, Object... args) {
        return synced(s, keys, acks, RScript.ReturnType.LIST, args);
    }

    /** {@link #listSynced} for a script that returns one integer (the one reply of the result). */
    public Synced numberSynced(Script s, List<Object> keys, ReplicaAcks acks, Object... args) {
        return synced(s, keys, acks, RScript.ReturnType.LONG, args);
    }

    private Synced synced(Script s, List<Object> keys, ReplicaAcks acks, RScript.ReturnType type, Object... args) {
        return reloading(s, keys, () -> {
            RBatch batch = redis.createBatch(BatchOptions.defaults().sync(acks.required(), acks.timeout()));
            batch.getScript(StringCodec.INSTANCE).evalShaAsync(key(keys), RScript.Mode.READ_WRITE, s.sha(), type,
                    keys, args);
            return Synced.of(await(s, batch.executeAsync()));
        });
    }

    /** The key that routes a call: every key of a script shares one hash tag, so the first names its node. */
    private static String key(List<Object> keys) {
        return (String) keys.get(0);
    }

    private <T> T reloading(Script s, List<Object> keys, Supplier<T> call) {
        try {
            return call.get();
        } catch (RedisNoScriptException e) {
            loadOn(s, key(keys));
            return call.get();
        }
    }

    /** Loads a script on the node that holds {@code key} (in a cluster, only that master forgot it). */
    private void loadOn(Script s, String key) {
        check(s, await(s, script.scriptLoadAsync(key, s.body())));
    }

    /** Redisson's answer to a call of {@code s}, or its failure as thrown; a timeout once {@code limit} passed. */
    private <T> T await(Script s, RFuture<T> call) {
        CompletableFuture<T> answer = call.toCompletableFuture();
        try {
            return answer.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(false);
            throw new RedisTimeoutException("no answer nor failure from Redisson for " + s.file() + " within " + limit);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new RedisException("failed to run " + s.file(), e.getCause());
        } catch (InterruptedException e) {
            call.cancel(false);
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted while running " + s.file(), e);
        }
    }

    private static void check(Script s, String sha) {
        if (!sha.equals(s.sha())) {
            throw new IllegalStateException("Redis returned SHA " + sha + " for " + s.file() + ", expected " + s.sha());
        }
    }
}
