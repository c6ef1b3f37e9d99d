package org.jfrworkbench.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

/**
 * The peer of a view: async-profiler's converter (jfr-converter, {@code JfrToFlame}) making its HTML flame graph of
 * the same recording for the same time range (inverted with {@code --reverse}, a search with {@code --include}),
 * which is what one runs per view without a server. It has no thread filter: its whole-recording graph stands in.
 */
final class ConverterPeer {
    private final Path file;

    ConverterPeer(Path file) {
        this.file = file;
    }

    /** Milliseconds for one conversion with these arguments. */
    double time(String... args) throws IOException {
        long started = System.nanoTime();
        try (JfrReader reader = new JfrReader(file.toString())) {
            JfrToFlame converter = new JfrToFlame(reader, new Arguments(args));
            converter.convert();
            converter.dump(OutputStream.nullOutputStream());
        }
        return (System.nanoTime() - started) / 1e6;
    }

    /** Arguments for the range [from, to) ms, plus more. */
    static String[] range(long from, long to, String... more) {
        List<String> out = new ArrayList<>(List.of("--from", String.valueOf(Math.max(1, from)), "--to", String.valueOf(to)));
        out.addAll(List.of(more));
        return out.toArray(String[]::new);
    }
}
