import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * Commits custom JFR events named and shaped after the Datadog Java profiler's public event definitions
 * (datadog.ExecutionSample, datadog.MethodSample, datadog.ObjectSample: the same names, field names and field
 * types; the thread-state, execution-mode and context fields are left out). They are written by the JDK's own
 * recorder, so each carries the JDK's startTime, duration, eventThread and stackTrace.
 */
public class DatadogShaped {
    @Name("datadog.ExecutionSample")
    @Label("Method CPU Profiling Sample")
    @Category({"Datadog", "Profiling"})
    static class ExecutionSample extends Event {
        @Label("Sample weight")
        long weight;
        @Label("Span ID")
        long spanId;
        @Label("Local Root Span ID")
        long localRootSpanId;
    }

    @Name("datadog.MethodSample")
    @Label("Method Wall Profiling Sample")
    @Category({"Datadog", "Profiling"})
    static class MethodSample extends Event {
        @Label("Sample weight")
        long weight;
        @Label("Span ID")
        long spanId;
        @Label("Local Root Span ID")
        long localRootSpanId;
    }

    @Name("datadog.ObjectSample")
    @Label("Allocation sample")
    @Category({"Datadog", "Profiling"})
    static class ObjectSample extends Event {
        @Label("Object Class")
        Class<?> objectClass;
        @Label("Original Size")
        @DataAmount
        long size;
        @Label("Sample weight")
        float weight;
        @Label("Span ID")
        long spanId;
        @Label("Local Root Span ID")
        long localRootSpanId;
    }

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        long end = System.currentTimeMillis() + Long.parseLong(args.length > 0 ? args[0] : "2000");
        long span = 1;
        while (System.currentTimeMillis() < end) {
            cpuWork(span);
            waitWork(span);
            allocate(span);
            span++;
        }
    }

    static void cpuWork(long span) {
        // long enough (a few hundred microseconds) that the JDK's own sampler, where it runs beside these events,
        // finds this thread running in Java code even on a loaded machine
        double x = 0;
        for (int i = 0; i < 300_000; i++) {
            x += Math.sqrt(i);
        }
        sink = x;
        ExecutionSample e = new ExecutionSample();
        e.weight = 1 + span % 3;
        e.spanId = span;
        e.localRootSpanId = span;
        e.commit();
    }

    static void waitWork(long span) throws InterruptedException {
        Thread.sleep(1);
        MethodSample e = new MethodSample();
        e.weight = 2;
        e.spanId = span;
        e.localRootSpanId = span;
        e.commit();
    }

    static void allocate(long span) {
        sink = new byte[4096];
        ObjectSample e = new ObjectSample();
        e.objectClass = byte[].class;
        e.size = 4096;
        e.weight = 2.5f;
        e.spanId = span;
        e.localRootSpanId = span;
        e.commit();
    }
}
