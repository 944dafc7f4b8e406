package dev.seckill.bench;

/**
 * A {@link Crowd} whose winners go on to pay (or not): every 202 is handed to the {@link Payers} the moment it is
 * answered, on the load client's thread, so the payment window starts with no delay of the bench's making.
 */
final class PayingCrowd implements LoadClient.Script {

    private final Crowd crowd;
    private final Payers payers;

    PayingCrowd(Crowd crowd, Payers payers) {
        this.crowd = crowd;
        this.payers = payers;
    }

    @Override
    public LoadClient.Request next() {
        return crowd.next();
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        crowd.answered(request, start, end, answer);
        if (answer.status() == 202) {
            Attempt a = crowd.attempts().getLast();
            payers.won(a.userId(), a.orderId());
        }
    }
}
