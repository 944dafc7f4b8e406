package dev.seckill.redis;

import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;

import java.util.List;

/**
 * Runs the scripts of {@link Script} by EVALSHA through Redisson with a String codec. Scripts are loaded once at
 * start; when Redis has forgotten them (restart, SCRIPT FLUSH) the NOSCRIPT answer is caught, the script is
 * loaded again and the call retried once.
 */
public final class ScriptRunner {

    private static final System.Logger LOG = System.getLogger(ScriptRunner.class.getName());

    private final RScript script;

    public ScriptRunner(RedissonClient redis) {
        this.script = redis.getScript(StringCodec.INSTANCE);
    }

    /** Loads every script; a Redis that is down now is not fatal (calls load on demand). */
    public void loadAll() {
        for (Script s : Script.values()) {
            try {
                load(s);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "failed to load " + s.file() + " at start (will load on first use): "
                        + e.getMessage());
            }
        }
    }

    /** Runs a script that returns an array: integers come back as Long, strings as String. */
    public List<Object> list(Script s, List<Object> keys, Object... args) {
        return run(s, RScript.ReturnType.LIST, keys, args);
    }

    /** Runs a script that returns an integer. */
    public long number(Script s, List<Object> keys, Object... args) {
        Long r = run(s, RScript.ReturnType.LONG, keys, args);
        return r;
    }

    private <T> T run(Script s, RScript.ReturnType type, List<Object> keys, Object... args) {
        try {
            return script.evalSha(RScript.Mode.READ_WRITE, s.sha(), type, keys, args);
        } catch (RedisNoScriptException e) {
            load(s);
            return script.evalSha(RScript.Mode.READ_WRITE, s.sha(), type, keys, args);
        }
    }

    private void load(Script s) {
        String sha = script.scriptLoad(s.body());
        if (!sha.equals(s.sha())) {
            throw new IllegalStateException("Redis returned SHA " + sha + " for " + s.file() + ", expected " + s.sha());
        }
    }
}
