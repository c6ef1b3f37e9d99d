package org.jfrworkbench.server.torture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jfrworkbench.testkit.process.ServerProcess;

/**
 * The suite's switches and shared facts. {@code -Dtorture.long=true} runs the long form (more cases, more kills,
 * minutes of load); {@code -Dtorture.seed=N} replays a run (the seed is printed at the start of each test).
 */
final class Torture {
    static final boolean LONG = Boolean.getBoolean("torture.long");
    /**
     * The server's heap in the bad-input, load and attack tests: -Xmx, with exit on the first OutOfMemoryError. 512 MB
     * by default, the heap the shared-server review probed with; {@code -Dtorture.heapMb=256} runs them on half of it
     * (see the operations guide for what that showed).
     */
    static final int HEAP_MB = Integer.getInteger("torture.heapMb", 512);
    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    private Torture() {
    }

    static long seed() {
        String s = System.getProperty("torture.seed");
        return s != null && !s.isBlank() ? Long.parseLong(s.trim()) : LONG ? System.currentTimeMillis() : 20261123L;
    }

    /** Child JVM options: the heap bound, exit on OOM (so a breach fails the test) and a GC log to read peaks from. */
    static List<String> boundedHeap(Path gcLog) {
        return List.of("-Xmx" + HEAP_MB + "m", "-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + gcLog);
    }

    /** Heap used before and after collections, as the GC log reports them, in MB. */
    record HeapPeaks(long maxBeforeGc, long maxAfterGc, int collections) {
        static HeapPeaks read(Path gcLog) throws IOException {
            long before = 0;
            long after = 0;
            int n = 0;
            for (String line : Files.readAllLines(gcLog)) {
                Matcher m = GC_LINE.matcher(line);
                if (m.find()) {
                    before = Math.max(before, Long.parseLong(m.group(1)));
                    after = Math.max(after, Long.parseLong(m.group(2)));
                    n++;
                }
            }
            return new HeapPeaks(before, after, n);
        }
    }

    /**
     * The live heap in MB: asks the server for a full GC through jcmd and reads what that collection left, from
     * the GC log. Young collections leave dead old objects counted, so only this figure is the retained heap.
     */
    static long liveHeapAfterFullGc(Process server, Path gcLog) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(server.pid()), "GC.run").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor();
        // jcmd returns once the GC is done; its log line may follow a moment later
        for (long stuck = System.nanoTime() + TimeUnit.SECONDS.toNanos(ServerProcess.STUCK_SECONDS); System.nanoTime() < stuck; ) {
            List<String> full = Files.readAllLines(gcLog).stream().filter(l -> l.contains("Pause Full (Diagnostic Command)")).toList();
            if (!full.isEmpty()) {
                Matcher m = GC_LINE.matcher(full.get(full.size() - 1));
                if (m.find()) {
                    return Long.parseLong(m.group(2));
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no full GC in the server's GC log after jcmd GC.run");
    }

    static List<Path> sampleRecordings() throws IOException {
        Path dir = Path.of(System.getProperty("samples.dir", "../sample-recordings"));
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList());
        }
    }
}
