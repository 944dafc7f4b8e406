package dev.seckill.order;

import dev.seckill.payment.Charge;
import dev.seckill.payment.ChargeRequest;
import dev.seckill.payment.LocalPaymentProvider;
import dev.seckill.payment.PaymentProvider;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The local provider's answers, a switch to decline, and a record of every charge and refund. */
public final class FakeProvider implements PaymentProvider {

    private final LocalPaymentProvider local = new LocalPaymentProvider();
    public final List<ChargeRequest> charges = new CopyOnWriteArrayList<>();
    public final List<String> refunds = new CopyOnWriteArrayList<>();
    public volatile boolean decline;

    @Override
    public String name() {
        return local.name();
    }

    @Override
    public Charge charge(ChargeRequest request) {
        charges.add(request);
        return decline ? new Charge.Declined("test card declined") : local.charge(request);
    }

    @Override
    public void refund(String reference) {
        refunds.add(reference);
    }

    public void reset() {
        charges.clear();
        refunds.clear();
        decline = false;
    }
}
