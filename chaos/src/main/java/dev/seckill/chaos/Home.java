package dev.seckill.chaos;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root: SECKILL_HOME (bin/seckill sets it), else the first directory up from here with bin/seckill. */
public final class Home {

    private Home() {
    }

    public static Path find() {
        String h = System.getenv("SECKILL_HOME");
        if (h != null && !h.isEmpty()) {
            return Path.of(h);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("bin/seckill"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the repository root (bin/seckill); set SECKILL_HOME");
        }
        return p;
    }
}
