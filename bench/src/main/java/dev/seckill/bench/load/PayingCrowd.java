package dev.seckill.bench.load;

import dev.seckill.bench.scenario.Payers;

/** A {@link Crowd} whose every 202 goes to its {@link Payers} as it is answered, so the window starts at once. */
public record PayingCrowd(Crowd crowd, Payers payers) implements LoadClient.Script {

    @Override
    public LoadClient.Request next() {
        return crowd.next();
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        crowd.answered(request, start, end, answer);
        if (answer.status() == 202) {
            payers.won(crowd.attempts().getLast());
        }
    }
}
