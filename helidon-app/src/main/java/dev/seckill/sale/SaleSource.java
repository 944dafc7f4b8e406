package dev.seckill.sale;

import java.util.Optional;

/** Where the catalog loads sales from (the database; a fake in unit tests). */
public interface SaleSource {

    Optional<Sale> find(long id);

    /** The highest sale id that exists, 0 when there is none. */
    long maxId();
}
