package dev.seckill.chaos.load;

/** A sale of the run: its stock and payment window, and the Redis master its keys sat on when it was created. */
public record RunSale(long id, int stock, int payWindowSeconds, String master, long createdMillis) {
}
