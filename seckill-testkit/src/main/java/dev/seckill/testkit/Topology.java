package dev.seckill.testkit;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What clients and operators reach of a running topology, the single stack ({@link Stack}) or the cluster
 * ({@link ClusterStack}) alike: so a test of the whole system (a stampede, its settlement and the invariant check)
 * runs on either.
 */
public interface Topology {

    /** Where clients go: the edge of the single stack, the load balancer of the cluster. */
    String publicUrl();

    /** A service's internal listener ({@code /admin/...}, {@code /observe/...}). */
    String adminUrl();

    /** The secrets bin/seckill made in the topology's run directory, unless the environment gives them. */
    RunDir secrets();

    default String adminToken() {
        return secrets().adminToken();
    }

    default String tokenSecret() {
        return secrets().tokenSecret();
    }

    default String lineSecret() {
        return secrets().lineSecret();
    }

    default String dbPassword() {
        return secrets().dbPassword();
    }

    /** Empty when Redis has none. */
    default String redisPassword() {
        return secrets().redisPassword();
    }

    /** MySQL, read directly (never through the service). */
    Connection db() throws SQLException;
}
