package dev.seckill.sale;

import java.time.Instant;

/** A sale's fixed facts (they never change after creation, so instances cache them freely). */
public record Sale(long id, String name, long priceCents, int stockTotal, Instant startsAt, Instant endsAt) {
}
