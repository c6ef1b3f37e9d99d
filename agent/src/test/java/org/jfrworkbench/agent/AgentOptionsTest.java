package org.jfrworkbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
    @Test
    void defaultsAreCheapAndRecordEverythingTheViewsNeed() {
        AgentOptions o = AgentOptions.parse("");
        assertEquals(Duration.ofSeconds(60), o.interval());
        assertEquals(AgentOptions.Engine.AUTO, o.engine());
        assertEquals(Duration.ofMillis(10), o.cpuInterval());
        assertEquals(0, o.allocBytes());
        assertEquals(AgentOptions.defaultAllocPerSecond(Runtime.getRuntime().availableProcessors()), o.allocPerSecond());
        assertEquals("vm", o.cstack(), "async-profiler's own default stack walker");
        assertEquals(AgentOptions.CpuEngine.AUTO, o.cpuEngine());
        assertTrue(o.live());
        assertNull(o.wallInterval());
        assertNull(o.lockThreshold());
        assertNull(o.upload());
        assertTrue(o.dir().isAbsolute());
        assertEquals(5, o.heapSummariesPerSecond());
        assertEquals(AgentOptions.HeapCount.AUTO, o.heapCount(),
                "the JVM's heap count walks every live object inside full collections: by default only where that is cheap");
        assertEquals(AgentOptions.DEFAULT_HEAP_COUNT_MAX_BYTES, o.heapCountMaxBytes());
    }

    @Test
    void theHeapCountIsAnOption() {
        assertEquals(AgentOptions.HeapCount.ALWAYS, AgentOptions.parse("heap-count=true").heapCount());
        assertEquals(AgentOptions.HeapCount.ALWAYS, AgentOptions.parse("heap-count").heapCount());
        assertEquals(AgentOptions.HeapCount.NEVER, AgentOptions.parse("heap-count=false").heapCount());
        assertEquals(AgentOptions.HeapCount.AUTO, AgentOptions.parse("heap-count=auto").heapCount());
        assertEquals(64L * 1024 * 1024, AgentOptions.parse("heap-count-max=64m").heapCountMaxBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("heap-count=maybe"));
        assertTrue(e.getMessage().contains("heap-count") && e.getMessage().contains("auto"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("heap-count-max=lots"));
        assertTrue(e.getMessage().contains("heap-count-max"), e.getMessage());
    }

    @Test
    void theDefaultAllocationTargetIsTwoHundredFiftyASecondPerProcessorUpToAThousand() {
        assertEquals(250, AgentOptions.defaultAllocPerSecond(1, false));
        assertEquals(250, AgentOptions.defaultAllocPerSecond(0, false));
        assertEquals(500, AgentOptions.defaultAllocPerSecond(2, false));
        assertEquals(1000, AgentOptions.defaultAllocPerSecond(4, false));
        assertEquals(1000, AgentOptions.defaultAllocPerSecond(64, false));
        assertEquals(AgentOptions.defaultAllocPerSecond(2, false), AgentOptions.defaultAllocPerSecond(2), "this JVM collects with G1 or Serial");
        assertEquals(100, AgentOptions.defaultAllocPerSecond(2, true), "under ZGC the former default");
        assertEquals(150, AgentOptions.defaultAllocPerSecond(64, true));
        assertEquals(150, AgentOptions.parse("alloc=150/s").allocPerSecond(), "an explicit target wins");
    }

    @Test
    void theNativeStackWalkerCanBeChosen() {
        assertEquals("dwarf", AgentOptions.parse("cstack=DWARF").cstack());
        assertEquals("no", AgentOptions.parse("cstack=no").cstack());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("cstack=deep"));
        assertTrue(e.getMessage().contains("cstack") && e.getMessage().contains("deep"), e.getMessage());
    }

    @Test
    void heapSummariesTakeALimitAllOrOff() {
        assertEquals(20, AgentOptions.parse("heap-summaries=20/s").heapSummariesPerSecond());
        assertEquals(20, AgentOptions.parse("heap-summaries=20").heapSummariesPerSecond());
        assertEquals(Integer.MAX_VALUE, AgentOptions.parse("heap-summaries=all").heapSummariesPerSecond());
        assertEquals(0, AgentOptions.parse("heap-summaries=off").heapSummariesPerSecond());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("heap-summaries=some")).getMessage()
                .contains("heap-summaries"));
    }

    @Test
    void parsesEveryOptionAndLabels() {
        AgentOptions o = AgentOptions.parse("dir=/tmp/x,interval=30s,engine=jfr,cpu=5ms,wall=50ms,alloc=2m,live=false,lock=1ms,"
                + "upload=http://wb:8080,token=t0k,spool-max=10m,nmt-interval=5s,label.service=checkout,label.version=1.2");
        assertEquals(Path.of("/tmp/x"), o.dir());
        assertEquals(Duration.ofSeconds(30), o.interval());
        assertEquals(AgentOptions.Engine.JFR, o.engine());
        assertEquals(Duration.ofMillis(5), o.cpuInterval());
        assertEquals(Duration.ofMillis(50), o.wallInterval());
        assertEquals(2 * 1024 * 1024, o.allocBytes());
        assertEquals(0, o.allocPerSecond(), "a fixed interval replaces the target rate");
        assertFalse(o.live());
        assertEquals(Duration.ofMillis(1), o.lockThreshold());
        assertEquals(URI.create("http://wb:8080"), o.upload());
        assertEquals("t0k", o.token());
        assertEquals(10L * 1024 * 1024, o.spoolMaxBytes());
        assertEquals(Duration.ofSeconds(5), o.nmtInterval());
        assertEquals(Map.of("service", "checkout", "version", "1.2"), o.labels());
    }

    @Test
    void cpuAndAllocCanBeSwitchedOff() {
        AgentOptions o = AgentOptions.parse("cpu=off,alloc=off,live=false");
        assertNull(o.cpuInterval());
        assertEquals(0, o.allocBytes());
        assertEquals(0, o.allocPerSecond());
        assertFalse(o.allocSampling());
    }

    @Test
    void autoSamplesCpuWithCtimerFromTenMillisecondsAndWithPerfEventsBelow() {
        // CPU timers fire on the kernel's tick: below 10 ms they would deliver fewer samples than asked
        assertEquals(List.of("ctimer", "itimer"), AgentOptions.parse("").cpuEvents());
        assertEquals(List.of("ctimer", "itimer"), AgentOptions.parse("cpu=10ms").cpuEvents());
        assertEquals(List.of("ctimer", "itimer"), AgentOptions.parse("cpu=20ms,cpu-engine=auto").cpuEvents());
        assertEquals(List.of("cpu", "itimer", "ctimer"), AgentOptions.parse("cpu=9ms").cpuEvents());
        assertEquals(List.of("cpu", "itimer", "ctimer"), AgentOptions.parse("cpu=1ms").cpuEvents());
    }

    @Test
    void allocationSamplingCanAimAtARateAndTheCpuEngineCanBeChosen() {
        AgentOptions o = AgentOptions.parse("alloc=40/s,cpu-engine=itimer");
        assertEquals(40, o.allocPerSecond());
        assertEquals(0, o.allocBytes());
        assertEquals(AgentOptions.CpuEngine.ITIMER, o.cpuEngine());
        assertEquals(List.of("itimer", "ctimer"), o.cpuEvents());
        assertEquals(List.of("cpu", "itimer", "ctimer"), AgentOptions.parse("cpu-engine=perf").cpuEvents());
        assertEquals(List.of("ctimer", "itimer"), AgentOptions.parse("cpu-engine=ctimer,cpu=1ms").cpuEvents());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc=0/s")).getMessage().contains("alloc"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc=many/s")).getMessage().contains("alloc"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("cpu-engine=pmu")).getMessage().contains("cpu-engine"));
    }

    @Test
    void badOptionsAreRejectedWithTheirName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=soon")).getMessage().contains("interval"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("engine=perf")).getMessage().contains("engine"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("colour=red")).getMessage().contains("colour"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("upload=ftp://x")).getMessage().contains("upload"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("spool-max=-5")).getMessage().contains("spool-max"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=0s")).getMessage().contains("interval"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc=off")).getMessage().contains("live"));
    }
}
