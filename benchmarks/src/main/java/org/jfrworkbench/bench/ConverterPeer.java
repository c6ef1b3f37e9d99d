package org.jfrworkbench.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

/**
 * The peer of a view: async-profiler's converter (jfr-converter, {@code JfrToFlame}) making its HTML flame graph of
 * a recording for a time range (inverted with {@code --reverse}, a search with {@code --include}), which is what one
 * runs per view without a server. It has no thread filter: its whole-recording graph stands in.
 *
 * <p>It runs in a JVM of its own ({@link #start}), started once and kept, so that its garbage (gigabytes per
 * conversion of a large recording) is collected there and not in the pauses of the JVM it is compared with; each
 * conversion is timed inside that JVM, so its start is not counted, and it is warmed by the conversions it makes,
 * as it was in the benchmark's own JVM.
 */
final class ConverterPeer implements AutoCloseable {
    private final Process process;
    private final BufferedWriter requests;
    private final BufferedReader answers;

    private ConverterPeer(Process process) {
        this.process = process;
        this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** A converter JVM on this JVM's class path, with these JVM options (a heap size, say). */
    static ConverterPeer start(List<String> jvmOptions) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConverterPeer.class.getName()));
        return new ConverterPeer(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    /** Milliseconds, as the converter's JVM timed it, for one conversion of file with these arguments. */
    double time(Path file, String... args) throws IOException {
        // one request per line, fields separated by NUL, which neither a path nor an argument here holds
        requests.write(file.toAbsolutePath() + "\0" + String.join("\0", args));
        requests.newLine();
        requests.flush();
        String answer = answers.readLine();
        if (answer == null || !answer.startsWith("ms ")) {
            throw new IOException("the converter's JVM failed on " + file + " " + Arrays.toString(args) + ": " + answer);
        }
        return Double.parseDouble(answer.substring(3));
    }

    @Override
    public void close() throws IOException {
        requests.close();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
        }
    }

    /** Arguments for the range [from, to) ms, plus more. */
    static String[] range(long from, long to, String... more) {
        List<String> out = new ArrayList<>(List.of("--from", String.valueOf(Math.max(1, from)), "--to", String.valueOf(to)));
        out.addAll(List.of(more));
        return out.toArray(String[]::new);
    }

    /** The converter's JVM: a line per request (file NUL arg NUL arg ...), a line per answer ("ms 123.4"). */
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] fields = line.split("\0", -1);
            String answer;
            try {
                answer = String.format(Locale.ROOT, "ms %.3f", convert(fields[0], Arrays.copyOfRange(fields, 1, fields.length)));
            } catch (IOException | RuntimeException e) {
                answer = "error " + e;
            }
            // its garbage collected before it answers (untimed), so that no concurrent cycle of this JVM's runs on
            // into the next view of the JVM it is compared with and takes a processor from it
            System.gc();
            System.out.println(answer.replace('\n', ' '));
            System.out.flush();
        }
    }

    private static double convert(String file, String[] args) throws IOException {
        long started = System.nanoTime();
        try (JfrReader reader = new JfrReader(file)) {
            JfrToFlame converter = new JfrToFlame(reader, new Arguments(args));
            converter.convert();
            converter.dump(OutputStream.nullOutputStream());
        }
        return (System.nanoTime() - started) / 1e6;
    }
}
