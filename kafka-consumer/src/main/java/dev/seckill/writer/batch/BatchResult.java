package dev.seckill.writer.batch;

import java.util.List;

/**
 * What one committed batch transaction did.
 *
 * @param inserted         rows really inserted (the stock was decremented by exactly these)
 * @param duplicates       events already written before (redelivery) or twice in the batch: ignored, no change
 * @param rejections       events that were not written and never will be, with the reason
 * @param breaches         stock-guard breaches, one per sale that hit one
 * @param versionConflicts optimistic-lock conflicts on stock rows that were retried inside the transaction
 */
public record BatchResult(int inserted, int duplicates, List<Rejection> rejections, List<GuardBreach> breaches,
                          int versionConflicts) {

    public static final BatchResult EMPTY = new BatchResult(0, 0, List.of(), List.of(), 0);

    public BatchResult {
        rejections = List.copyOf(rejections);
        breaches = List.copyOf(breaches);
    }
}
