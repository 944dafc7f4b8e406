package dev.seckill.identity;

/** A verified user. */
public record User(long id) {
}
