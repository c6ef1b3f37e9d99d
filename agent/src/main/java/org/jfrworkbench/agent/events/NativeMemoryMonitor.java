package org.jfrworkbench.agent.events;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.jfrworkbench.agent.Log;

/** Reads the Native Memory Tracking summary through the DiagnosticCommand MBean (only when the JVM runs with NMT). */
public final class NativeMemoryMonitor {
    private static final Pattern TOTAL = Pattern.compile("^Total:\\s+reserved=(\\d+)KB,\\s+committed=(\\d+)KB", Pattern.MULTILINE);
    private static final Pattern CATEGORY =
            Pattern.compile("^-\\s+(.+?)\\s+\\(reserved=(\\d+)KB,\\s+committed=(\\d+)KB\\)", Pattern.MULTILINE);

    /** One parsed summary line, in bytes. */
    public record Entry(String category, long reserved, long committed) {
    }

    public static boolean isTrackingOn() {
        try {
            HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            String mode = hs.getVMOption("NativeMemoryTracking").getValue();
            return !"off".equalsIgnoreCase(mode);
        } catch (Throwable t) {
            return false;
        }
    }

    /** Commits one event per summary line. */
    public void record() {
        try {
            for (Entry e : parse(summary())) {
                NativeMemorySummaryEvent event = new NativeMemorySummaryEvent();
                event.category = e.category();
                event.reserved = e.reserved();
                event.committed = e.committed();
                event.commit();
            }
        } catch (Throwable t) {
            Log.failureOnce("nmt", "could not read the native memory summary", t);
        }
    }

    private static String summary() throws Exception {
        ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
        Object out = ManagementFactory.getPlatformMBeanServer().invoke(name, "vmNativeMemory",
                new Object[] {new String[] {"summary", "scale=KB"}}, new String[] {String[].class.getName()});
        return String.valueOf(out);
    }

    /** Parses the text of {@code VM.native_memory summary scale=KB} (the format of JDK 17 to 25). */
    public static List<Entry> parse(String text) {
        List<Entry> entries = new ArrayList<>();
        Matcher total = TOTAL.matcher(text);
        if (total.find()) {
            entries.add(new Entry("Total", Long.parseLong(total.group(1)) * 1024, Long.parseLong(total.group(2)) * 1024));
        }
        Matcher m = CATEGORY.matcher(text);
        while (m.find() && entries.size() < 200) {
            entries.add(new Entry(m.group(1).trim(), Long.parseLong(m.group(2)) * 1024, Long.parseLong(m.group(3)) * 1024));
        }
        return entries;
    }
}
