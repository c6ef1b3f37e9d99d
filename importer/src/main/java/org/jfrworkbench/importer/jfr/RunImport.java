package org.jfrworkbench.importer.jfr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;

import org.jfrworkbench.model.Profile;

/**
 * A run read part by part: each part's chunks continue the profile and the state that the parts before left, as if
 * all the chunks followed one another in one file. The profile before {@link #finish} is open (what the chunks gave,
 * without the file's end: leaks, live samples, the GCs still waiting for a part); it and {@link #writeState} are what a
 * run keeps between parts, so a part's work is its own chunks plus the run's model, never the earlier parts' chunks.
 *
 * <p>Where this differs from reading the concatenation: each part is read on its own, so a damaged chunk at the end of
 * a part drops that part's rest only, not every later part, and a constant key a part uses without defining it is not
 * looked up in an earlier part (JDK and async-profiler chunks define every key they use); and mallocs and frees are
 * matched part after part (in time order within each), which is time order as long as a part's events come after the
 * earlier parts' (chunks follow each other in time).
 */
public final class RunImport {
    /** The form of {@link #writeState}: a state of another form is refused ({@link #resume} throws), never misread. */
    private static final int STATE_FORM = 1;

    private final ProfileBuilder builder;
    private boolean finished;

    private RunImport(Profile profile) {
        this.builder = new ProfileBuilder(profile);
    }

    /** A run whose first part is read next into profile (new, not sealed). */
    public static RunImport start(Profile profile) {
        return new RunImport(profile);
    }

    /**
     * A run that goes on from profile (open, as the previous part left it) and the state written beside it; an
     * IOException when the state is of another form (written by another version: read the run's parts again).
     */
    public static RunImport resume(Profile open, DataInput state) throws IOException {
        int form = state.readInt();
        if (form != STATE_FORM) {
            throw new IOException("run state of form " + form + ", this version reads form " + STATE_FORM);
        }
        RunImport run = new RunImport(open);
        run.builder.read(state);
        return run;
    }

    /**
     * Reads a part's chunks (a JFR file); a part with no readable chunk fails, and then this run is left in an
     * unknown state: resume it again from what was kept.
     */
    public void read(Path part) throws IOException {
        if (finished) {
            throw new IllegalStateException("the run was finished");
        }
        JfrImporter.readChunks(part, builder);
    }

    /** The profile as read so far: open until {@link #finish}. */
    public Profile profile() {
        return builder.profile();
    }

    /** Writes the state beside the open profile; call it before {@link #finish}, which consumes the state. */
    public void writeState(DataOutput out) throws IOException {
        if (finished) {
            throw new IllegalStateException("the run was finished");
        }
        out.writeInt(STATE_FORM);
        builder.write(out);
    }

    /** Completes the profile as the end of the file does (leaks, GCs, live samples, facts); the run reads no more. */
    public Profile finish() {
        finished = true;
        builder.finish();
        return builder.profile();
    }

    static int count(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1 << 28) {
            throw new EOFException("run state is damaged (count " + n + ")");
        }
        return n;
    }

    static void writeText(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            // writeUTF takes at most 65535 encoded bytes
            out.writeUTF(s.length() > 16000 ? s.substring(0, 16000) : s);
        }
    }

    static String readText(DataInput in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
