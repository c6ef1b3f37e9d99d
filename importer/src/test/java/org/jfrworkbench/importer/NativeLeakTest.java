package org.jfrworkbench.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** profiler.Free matched to profiler.Malloc: nativemem keeps every malloc, leak only the ones never freed. */
class NativeLeakTest {
    @TempDir
    Path tmp;

    @Test
    void leakKeepsOnlyMallocsThatWereNeverFreed() throws Exception {
        Path recording = Recordings.nativeLeak();
        Profile p = new Importer().read(recording);
        Map<String, Long> all = FoldedStacks.of(p, Kind.NATIVEMEM, null, null, FrameNaming.DEFAULT);
        Map<String, Long> leaks = FoldedStacks.of(p, Kind.LEAK, null, null, FrameNaming.DEFAULT);
        long churnAll = weightThrough(all, "NativeLeak.churn");
        long leakAll = weightThrough(all, "NativeLeak.leak");
        assertTrue(churnAll > 10 * leakAll, "every malloc is a nativemem sample: " + churnAll + " vs " + leakAll);
        long churnLeaked = weightThrough(leaks, "NativeLeak.churn");
        long leakLeaked = weightThrough(leaks, "NativeLeak.leak");
        // churn's own 20 kB blocks are all freed; only small JVM-internal mallocs on its stacks stay
        assertTrue(churnLeaked < churnAll / 1000, "memory freed at once is no leak: " + churnLeaked + " of " + churnAll);
        // everything leak() kept, except what it allocated in the last 10 % of the recording (async-profiler's tail)
        assertTrue(leakLeaked >= leakAll * 0.8 && leakLeaked <= leakAll, leakLeaked + " of " + leakAll);
        assertTrue(p.samples(Kind.LEAK).totalWeight() < p.samples(Kind.NATIVEMEM).totalWeight());
    }

    @Test
    void leakMatchesAsyncProfilersOwnConverter() throws Exception {
        Path recording = Recordings.nativeLeak();
        Profile p = new Importer().read(recording);
        long bytes = convertedTotal(recording, "--total");
        assertTrue(bytes > 0);
        assertEquals(bytes, p.samples(Kind.LEAK).totalWeight(), "bytes not freed");
        assertEquals(convertedTotal(recording), p.samples(Kind.LEAK).size(), "mallocs not freed");
    }

    /** The sum over async-profiler's converter's collapsed --nativemem --leak output (samples, or bytes with --total). */
    private long convertedTotal(Path recording, String... options) throws Exception {
        Path out = Files.createTempFile(tmp, "leak", ".collapsed");
        String[] args = new String[options.length + 4];
        args[0] = "--nativemem";
        args[1] = "--leak";
        System.arraycopy(options, 0, args, 2, options.length);
        args[args.length - 2] = recording.toString();
        args[args.length - 1] = out.toString();
        // the converter's entry point is class Main of jfr-converter, in the unnamed package
        Class.forName("Main").getMethod("main", String[].class).invoke(null, (Object) args);
        long total = 0;
        for (String line : Files.readAllLines(out)) {
            total += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
        }
        return total;
    }

    private static long weightThrough(Map<String, Long> collapsed, String frame) {
        return collapsed.entrySet().stream().filter(e -> e.getKey().contains(frame)).mapToLong(Map.Entry::getValue).sum();
    }
}
