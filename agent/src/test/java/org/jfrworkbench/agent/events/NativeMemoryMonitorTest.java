package org.jfrworkbench.agent.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NativeMemoryMonitorTest {
    // shape of `jcmd PID VM.native_memory summary scale=KB` on JDK 17 and 25 (25 adds the malloc/mmap lines)
    private static final String SUMMARY = """
            Native Memory Tracking:

            (Omitting categories weighting less than 1KB)

            Total: reserved=1454567KB, committed=98113KB
                   malloc: 19637KB #32421
                   mmap:   reserved=1434930KB, committed=78476KB

            -                 Java Heap (reserved=262144KB, committed=16384KB)
                                        (mmap: reserved=262144KB, committed=16384KB)

            -                     Class (reserved=1048879KB, committed=623KB)
                                        (classes #1021)

            -                    Thread (reserved=21528KB, committed=1108KB)
                                        (thread #21)
            """;

    @Test
    void parsesTotalAndEveryCategoryInBytes() {
        List<NativeMemoryMonitor.Entry> entries = NativeMemoryMonitor.parse(SUMMARY);
        assertEquals(new NativeMemoryMonitor.Entry("Total", 1454567L * 1024, 98113L * 1024), entries.get(0));
        assertEquals(new NativeMemoryMonitor.Entry("Java Heap", 262144L * 1024, 16384L * 1024), entries.get(1));
        assertEquals(List.of("Total", "Java Heap", "Class", "Thread"), entries.stream().map(NativeMemoryMonitor.Entry::category).toList());
    }

    @Test
    void textWithoutTrackingGivesNoEntries() {
        assertTrue(NativeMemoryMonitor.parse("Native memory tracking is not enabled").isEmpty());
    }

    @Test
    void thisTestJvmRunsWithoutTracking() {
        assertEquals(false, NativeMemoryMonitor.isTrackingOn());
    }
}
