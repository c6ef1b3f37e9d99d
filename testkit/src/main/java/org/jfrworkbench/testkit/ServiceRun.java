package org.jfrworkbench.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * A run of a service as a JFR chunk whose every sample is known: CPU samples every periodMillis from startNanos
 * (epoch nanoseconds), the stack of sample i being {@code app.Main.main -> app.Service.handle -> app.Service.LEAF}
 * with the leaf that leaf(i) names, and optionally beside each an allocation sample (jdk.ObjectAllocationSample) of
 * allocationBytes on the same stack. Tests of views across runs and of time ranges know their answers from it.
 */
public final class ServiceRun {
    private ServiceRun() {
    }

    public static byte[] of(long startNanos, int samples, long periodMillis, IntFunction<String> leaf) {
        return of(startNanos, samples, periodMillis, leaf, 0);
    }

    public static byte[] of(long startNanos, int samples, long periodMillis, IntFunction<String> leaf, long allocationBytes) {
        long period = periodMillis * 1_000_000;
        JfrWriter w = new JfrWriter(startNanos, samples * period);
        w.stackTypes();
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.type("jdk.ObjectAllocationSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.pool("objectClass", "java.lang.Class"), Field.of("weight", "long"));
        w.constant("java.lang.Thread", 5, "worker", 1L);
        w.constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main")
                .constant("jdk.types.Symbol", 3, "app/Service").constant("jdk.types.Symbol", 4, "handle");
        w.constant("java.lang.Class", 10, 1L).constant("java.lang.Class", 11, 3L);
        w.constant("jdk.types.Method", 20, 10L, 2L).constant("jdk.types.Method", 21, 11L, 4L);
        Map<String, Long> stacks = new LinkedHashMap<>();
        List<Long> stackOf = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            String name = leaf.apply(i);
            Long stack = stacks.get(name);
            if (stack == null) {
                long k = stacks.size();
                stack = 300 + k;
                stacks.put(name, stack);
                w.constant("jdk.types.Symbol", 100 + k, name);
                w.constant("jdk.types.Method", 200 + k, 11L, 100 + k);
                w.constant("jdk.types.StackTrace", stack, false, List.<Object[]>of(new Object[] {200 + k, 1},
                        new Object[] {21L, 1}, new Object[] {20L, 1}));
            }
            stackOf.add(stack);
        }
        for (int i = 0; i < samples; i++) {
            w.event("jdk.ExecutionSample", i * period, 5L, stackOf.get(i));
            if (allocationBytes > 0) {
                w.event("jdk.ObjectAllocationSample", i * period, 5L, stackOf.get(i), 11L, allocationBytes);
            }
        }
        return w.chunk();
    }
}
