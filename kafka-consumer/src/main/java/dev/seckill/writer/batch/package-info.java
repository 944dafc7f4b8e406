/**
 * The batch model and the rules deciding which events of a batch are new orders, duplicates or rejects. Pure logic
 * with no I/O; the store and the consumer depend on it, never the other way round.
 */
package dev.seckill.writer.batch;
