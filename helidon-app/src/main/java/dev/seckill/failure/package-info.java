/**
 * Failures the domain raises, without knowing how they are answered: only the HTTP layer (ErrorHandlers) turns them
 * into statuses and bodies.
 */
package dev.seckill.failure;
