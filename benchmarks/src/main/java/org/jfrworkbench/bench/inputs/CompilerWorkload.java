package org.jfrworkbench.bench.inputs;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A real program's workload beside the generated service: the JDK's compiler, javac, compiling this project's own
 * main sources again and again on a few threads, a random two thirds of the files each time. Its stacks are what the
 * generated ones are not: deep recursion (the compiler's tree visitors, 200 frames and more), methods inlined into
 * one caller and compiled alone under another, a few hundred thousand distinct stacks from one program.
 *
 * <p>Arguments: seed, threads, the longest run in seconds, the CPU seconds of the process to stop after (0: no
 * limit), the class path to compile against, then the source directories.
 */
public final class CompilerWorkload {
    private CompilerWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        long end = System.nanoTime() + (long) (Double.parseDouble(args[2]) * 1e9);
        long cpuNanos = (long) (Double.parseDouble(args[3]) * 1e9);
        String classPath = args[4];
        List<String> files = new ArrayList<>();
        for (int i = 5; i < args.length; i++) {
            try (Stream<Path> s = Files.walk(Path.of(args[i]))) {
                s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted().forEach(files::add);
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no sources under the directories given");
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Random random = new Random(seed * 1000 + t);
            workers.add(new Thread(() -> {
                try {
                    while (System.nanoTime() < end && (cpuNanos == 0 || os.getProcessCpuTime() < cpuNanos)) {
                        List<String> part = new ArrayList<>(files);
                        Collections.shuffle(part, random);
                        part = part.subList(0, Math.max(1, part.size() * 2 / 3));
                        Path out = Files.createTempDirectory("compiler-workload");
                        try {
                            List<String> options = new ArrayList<>(List.of("-cp", classPath, "-d", out.toString(),
                                    "-proc:none", "-implicit:none", "-nowarn", "-Xlint:none", "-g"));
                            options.addAll(part);
                            // the outcome does not matter, the work does; errors (none expected) are not printed
                            javac.run(null, OutputStream.nullOutputStream(), OutputStream.nullOutputStream(),
                                    options.toArray(String[]::new));
                        } finally {
                            delete(out);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "javac-" + t));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
