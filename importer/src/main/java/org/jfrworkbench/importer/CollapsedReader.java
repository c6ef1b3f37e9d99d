package org.jfrworkbench.importer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.Sources;

/**
 * Reads collapsed stacks ({@code root;frame;leaf weight} per line, as async-profiler and FlameGraph write them)
 * into samples of one kind. async-profiler's {@code _[j]}-style suffixes become frame types.
 */
public final class CollapsedReader {
    /** Longest line we accept; a longer one is an error, not an allocation. */
    public static final int MAX_LINE = 1 << 20;
    private static final int MAX_DEPTH = 8192;

    private final Profile profile;
    private final SampleTable samples;
    private final int source;
    private int[] frames = new int[64];

    public CollapsedReader(Profile profile, Kind kind) {
        this.profile = profile;
        this.samples = profile.samples(kind);
        this.source = profile.sources().intern(Sources.COLLAPSED);
    }

    public void read(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        long lineNo = 0;
        long offset = 0;
        StringBuilder line = new StringBuilder();
        while (readLine(reader, line, offset)) {
            lineNo++;
            offset += line.length() + 1;
            int len = line.length();
            if (len > 0 && line.charAt(len - 1) == '\r') {
                line.setLength(--len);
            }
            if (len == 0 || line.charAt(0) == '#') {
                continue;
            }
            addLine(line, lineNo);
        }
        if (samples.size() == 0) {
            throw new InvalidRecordingException(-1, "no collapsed stacks found: expected lines of the form 'frame;frame;frame weight'");
        }
        profile.countEvent("collapsed.Stack", samples.size());
    }

    private static boolean readLine(BufferedReader reader, StringBuilder line, long offset) throws IOException {
        line.setLength(0);
        int c;
        while ((c = reader.read()) >= 0) {
            if (c == '\n') {
                return true;
            }
            if (c == 0) {
                throw new InvalidRecordingException(offset + line.length(), "binary data (NUL byte) in collapsed text");
            }
            if (line.length() >= MAX_LINE) {
                throw new InvalidRecordingException(offset, "line longer than " + MAX_LINE + " characters");
            }
            line.append((char) c);
        }
        return line.length() > 0;
    }

    private void addLine(CharSequence line, long lineNo) throws InvalidRecordingException {
        int space = lastIndexOf(line, ' ');
        if (space <= 0) {
            throw new InvalidRecordingException(-1, "line " + lineNo + ": expected 'frames weight', found no weight");
        }
        long weight;
        try {
            weight = Long.parseLong(line.subSequence(space + 1, line.length()).toString().trim());
        } catch (NumberFormatException e) {
            throw new InvalidRecordingException(-1, "line " + lineNo + ": weight is not a whole number");
        }
        if (weight < 0) {
            throw new InvalidRecordingException(-1, "line " + lineNo + ": negative weight");
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= space; i++) {
            if (i == space || CollapsedFormat.isSeparator(line, i)) {
                if (i > start) {
                    if (depth == MAX_DEPTH) {
                        throw new InvalidRecordingException(-1, "line " + lineNo + ": more than " + MAX_DEPTH + " frames");
                    }
                    if (depth == frames.length) {
                        frames = java.util.Arrays.copyOf(frames, depth * 2);
                    }
                    frames[depth++] = frame(line, start, i);
                }
                start = i + 1;
            }
        }
        if (depth == 0) {
            throw new InvalidRecordingException(-1, "line " + lineNo + ": no frames");
        }
        // collapsed text is root first; the model stores leaf first
        for (int i = 0, j = depth - 1; i < j; i++, j--) {
            int t = frames[i];
            frames[i] = frames[j];
            frames[j] = t;
        }
        int stack = profile.stacks().add(frames, 0, depth, false);
        samples.add(profile.startNanos(), 0, stack, weight, 0, 0, source);
    }

    /** A frame from line[from, to): the type suffix is read from the text as written, then the name unescaped. */
    private int frame(CharSequence line, int from, int to) {
        FrameType type = FrameType.UNKNOWN;
        int n = to - from;
        // a name's own trailing "_[x]" is written "_\\[x]" (CollapsedFormat), so it never looks like a suffix here
        if (n > 4 && line.charAt(to - 1) == ']' && line.charAt(to - 3) == '[' && line.charAt(to - 4) == '_') {
            type = FrameType.fromCollapsedSuffix(line.charAt(to - 2));
            to -= 4;
        }
        String name = CollapsedFormat.unescapeFrame(line, from, to);
        int dot = name.indexOf('(') < 0 ? name.lastIndexOf('.') : name.lastIndexOf('.', name.indexOf('('));
        String cls = dot > 0 ? name.substring(0, dot) : "";
        String method = dot > 0 ? name.substring(dot + 1) : name;
        int m = profile.methods().add(profile.strings().intern(cls), profile.strings().intern(method), 0);
        return profile.frames().add(m, 0, type);
    }

    private static int lastIndexOf(CharSequence s, char c) {
        for (int i = s.length() - 1; i >= 0; i--) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }
}
