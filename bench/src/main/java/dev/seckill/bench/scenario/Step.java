package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Section;

import java.util.List;

/**
 * One step of {@code bin/seckill bench}, one class each: it runs its load on the scenario's stack when its option asks
 * for it, checks its sales, and gives its sections of the report (none when it did not run). The bench runs its steps
 * in order; what a later step needs of an earlier one is in {@link Scenario#found}.
 */
@FunctionalInterface
public interface Step {

    List<Section> run(Scenario s) throws Exception;
}
