package org.jfrworkbench.server.store;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.analysis.CallTreeCodec;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.model.ClassCount;
import org.jfrworkbench.model.Dictionary;
import org.jfrworkbench.model.FrameTable;
import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.HeapSample;
import org.jfrworkbench.model.PoolUsage;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.MethodTable;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.StackTable;
import org.jfrworkbench.model.StringTable;
import org.jfrworkbench.model.ThreadTable;

/**
 * A compact binary form of a {@link Profile}, so queries never re-parse the original recording.
 * Tables are written in id order and re-added in the same order, which reproduces the same dense ids.
 * Every count read back is checked against the bytes left, so a damaged file fails instead of allocating wildly.
 * The bytes are those of {@link java.io.DataOutputStream}, written and read through one array ({@link BigEndianOutput}).
 * Version 3 adds the recording's default call tree ({@link CallTreeCodec}) after the warnings; a version 2 file
 * still reads, and its tree is built when it is loaded.
 */
public final class ProfileCodec {
    private static final int MAGIC = 0x57425046; // "WBPF"
    /**
     * 2: samples carry a thread state and a source, and execution samples are classified by producer and mode;
     * 3: the recording's default call tree follows the profile ({@link CallTreeCodec});
     * 4: only collections are GCs, and each live sample carries the last GC it survived (after the heap readings);
     * 5: the memory pools' usage around GCs follows the live samples' GCs (a file of version 4 reads without them);
     * 6: the exact class counts after GCs follow the pools (a file of version 4 or 5 reads without them).
     */
    static final int VERSION = 6;
    /**
     * The first version whose kinds and GCs are classified by today's rules: a file of an earlier one is re-imported.
     */
    static final int FIRST_CURRENT = 4;

    /** A profile file written by an earlier version: its kinds may be classified by older rules, so re-import it. */
    public static final class OutdatedProfileException extends IOException {
        OutdatedProfileException(int version) {
            super("profile file of version " + version + ", this version reads " + FIRST_CURRENT + " to " + VERSION
                    + ": re-import the original");
        }
    }

    /** A profile as read, with its stored call tree (null for a file of version 2, whose tree is built on load). */
    public record Decoded(Profile profile, CallTreeCodec.Stored tree) {
    }

    private ProfileCodec() {
    }

    /** Writes the profile with its default call tree. */
    public static void write(ProfileData data, Path file) throws IOException {
        try (OutputStream os = Files.newOutputStream(file)) {
            write(data.profile(), data, os);
        }
    }

    public static void write(Profile p, OutputStream os) throws IOException {
        write(p, (ProfileData) null, os);
    }

    /** data: the profile's tree to keep with it, or null for none. */
    public static void write(Profile p, ProfileData data, OutputStream os) throws IOException {
        write(p, () -> data, os);
    }

    /** Gives the profile's call tree to keep with it (or null for none), waiting for it where it is being built. */
    @FunctionalInterface
    public interface TreeSource {
        ProfileData get() throws IOException;
    }

    /** As {@link #write(Profile, ProfileData, OutputStream)}, the tree asked of tree only once the profile is written. */
    public static void write(Profile p, TreeSource tree, OutputStream os) throws IOException {
        BigEndianOutput out = new BigEndianOutput(os);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(p.chunks());
        out.writeLong(p.startNanos());
        out.writeLong(p.endNanos());
        StringTable strings = p.strings();
        out.writeInt(strings.size());
        for (int i = 1; i < strings.size(); i++) {
            out.writeUTF(clip(strings.get(i)));
        }
        MethodTable methods = p.methods();
        out.writeInt(methods.size());
        for (int i = 0; i < methods.size(); i++) {
            out.writeInt(methods.className(i));
            out.writeInt(methods.name(i));
            out.writeInt(methods.descriptor(i));
        }
        FrameTable frames = p.frames();
        out.writeInt(frames.size());
        for (int i = 0; i < frames.size(); i++) {
            out.writeInt(frames.method(i));
            out.writeInt(frames.line(i));
            out.writeByte(frames.type(i).ordinal());
        }
        StackTable stacks = p.stacks();
        out.writeInt(stacks.size());
        for (int i = 0; i < stacks.size(); i++) {
            int depth = stacks.depth(i);
            out.writeInt(depth);
            out.writeBoolean(stacks.truncated(i));
            for (int d = 0; d < depth; d++) {
                out.writeInt(stacks.frame(i, d));
            }
        }
        ThreadTable threads = p.threads();
        out.writeInt(threads.size());
        for (int i = 1; i < threads.size(); i++) {
            ThreadTable.ThreadInfo t = threads.get(i);
            out.writeUTF(clip(t.name()));
            out.writeLong(t.javaId());
            out.writeLong(t.osId());
        }
        for (Dictionary d : List.of(p.states(), p.sources())) {
            out.writeInt(d.size());
            for (int i = 1; i < d.size(); i++) {
                out.writeUTF(clip(d.get(i)));
            }
        }
        Map<Kind, SampleTable> kinds = p.kinds();
        out.writeInt(kinds.size());
        for (SampleTable t : kinds.values()) {
            out.writeByte(t.kind().ordinal());
            int n = t.size();
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                out.writeLong(t.time(i));
                out.writeInt(t.thread(i));
                out.writeInt(t.stack(i));
                out.writeLong(t.weight(i));
                out.writeInt(t.objectClass(i));
                out.writeByte(t.state(i));
                out.writeByte(t.source(i));
            }
        }
        out.writeInt(p.heap().gcs().size());
        for (GcEvent g : p.heap().gcs()) {
            out.writeLong(g.gcId());
            out.writeLong(g.startNanos());
            out.writeLong(g.durationNanos());
            out.writeUTF(clip(g.name()));
            out.writeUTF(clip(g.cause()));
            out.writeLong(g.heapUsedBefore());
            out.writeLong(g.heapUsedAfter());
            out.writeLong(g.heapCommitted());
            out.writeLong(g.longestPauseNanos());
        }
        out.writeInt(p.heap().samples().size());
        for (HeapSample s : p.heap().samples()) {
            out.writeLong(s.timeNanos());
            out.writeLong(s.used());
            out.writeLong(s.committed());
            out.writeUTF(clip(s.source()));
        }
        out.writeInt(p.heap().survivedCount());
        for (int i = 0; i < p.heap().survivedCount(); i++) {
            out.writeLong(p.heap().survivedUntil(i));
        }
        out.writeInt(p.heap().pools().size());
        for (PoolUsage u : p.heap().pools()) {
            out.writeLong(u.gcId());
            out.writeLong(u.timeNanos());
            out.writeBoolean(u.afterGc());
            out.writeUTF(clip(u.pool()));
            out.writeLong(u.used());
            out.writeLong(u.committed());
        }
        out.writeInt(p.heap().classCounts().size());
        for (ClassCount c : p.heap().classCounts()) {
            out.writeLong(c.gcId());
            out.writeLong(c.timeNanos());
            out.writeUTF(clip(c.className()));
            out.writeLong(c.count());
            out.writeLong(c.bytes());
        }
        writeMap(out, p.labels());
        writeMap(out, p.metadata());
        out.writeInt(p.sourceEvents().size());
        for (Map.Entry<String, Long> e : p.sourceEvents().entrySet()) {
            out.writeUTF(clip(e.getKey()));
            out.writeLong(e.getValue());
        }
        out.writeInt(p.warnings().size());
        for (String w : p.warnings()) {
            out.writeUTF(clip(w));
        }
        ProfileData data = tree.get();
        out.writeBoolean(data != null);
        if (data != null) {
            CallTreeCodec.write(data, out);
        }
        out.writeInt(MAGIC);
        out.flush();
    }

    /** Whether the file is a profile this version reads as it is (false for an earlier one, to be re-imported). */
    public static boolean isCurrent(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return isCurrent(in);
        }
    }

    /** Whether the stream starts with a profile this version reads as it is; reads its first 8 bytes. */
    public static boolean isCurrent(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        try {
            if (in.readInt() != MAGIC) {
                return false;
            }
            int version = in.readInt();
            return version >= FIRST_CURRENT && version <= VERSION;
        } catch (EOFException e) {
            return false;
        }
    }

    public static Decoded read(Path file) throws IOException {
        long size = Files.size(file);
        try (InputStream is = Files.newInputStream(file)) {
            return decode(is, size);
        }
    }

    /** Reads the profile of a file written by {@link #write}, skipping its tree. */
    public static Profile read(InputStream is, long size) throws IOException {
        return decode(is, size).profile();
    }

    /** Reads a profile written by {@link #write}; size bounds every count (each element takes at least one byte). */
    public static Decoded decode(InputStream is, long size) throws IOException {
        return decode(is, size, true);
    }

    /**
     * Reads a profile that was written before it was sealed (a run's open profile, see {@code RunState}) and leaves it
     * open, so that more can be added to it; its tree, if any, is skipped.
     */
    public static Profile readOpen(InputStream is, long size) throws IOException {
        return decode(is, size, false).profile();
    }

    private static Decoded decode(InputStream is, long size, boolean seal) throws IOException {
        BigEndianInput in = new BigEndianInput(is);
        if (in.readInt() != MAGIC) {
            throw new IOException("not a profile file");
        }
        int version = in.readInt();
        if (version < FIRST_CURRENT) {
            throw new OutdatedProfileException(version);
        }
        if (version > VERSION) {
            throw new IOException("profile file of version " + version + " is newer than this version reads (" + VERSION + ")");
        }
        Profile p = new Profile();
        int chunks = in.readInt();
        long start = in.readLong();
        long end = in.readLong();
        if (chunks > 0) {
            for (int i = 0; i < Math.min(chunks, 1 << 20); i++) {
                p.addChunk(start, end - start);
            }
        } else if (start != 0) {
            p.coverTime(start);
            p.coverTime(end);
        }
        int n = count(in, size);
        for (int i = 1; i < n; i++) {
            p.strings().intern(in.readUTF());
        }
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.methods().add(in.readInt(), in.readInt(), in.readInt());
        }
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.frames().add(in.readInt(), in.readInt(), FrameType.of(in.readByte()));
        }
        n = count(in, size);
        int[] buf = new int[64];
        for (int i = 0; i < n; i++) {
            int depth = count(in, size);
            boolean truncated = in.readBoolean();
            if (buf.length < depth) {
                buf = new int[Math.max(depth, buf.length * 2)];
            }
            for (int d = 0; d < depth; d++) {
                buf[d] = in.readInt();
            }
            p.stacks().add(buf, 0, depth, truncated);
        }
        n = count(in, size);
        for (int i = 1; i < n; i++) {
            p.threads().add(new ThreadTable.ThreadInfo(in.readUTF(), in.readLong(), in.readLong()));
        }
        for (Dictionary d : List.of(p.states(), p.sources())) {
            n = count(in, size);
            for (int i = 1; i < n; i++) {
                d.intern(in.readUTF());
            }
        }
        n = count(in, size);
        for (int k = 0; k < n; k++) {
            SampleTable t = p.samples(Kind.values()[in.readByte()]);
            int samples = count(in, size);
            for (int i = 0; i < samples; i++) {
                t.add(in.readLong(), in.readInt(), in.readInt(), in.readLong(), in.readInt(), in.readUnsignedByte(),
                        in.readUnsignedByte());
            }
        }
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.heap().addGc(new GcEvent(in.readLong(), in.readLong(), in.readLong(), in.readUTF(), in.readUTF(),
                    in.readLong(), in.readLong(), in.readLong(), in.readLong()));
        }
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.heap().addSample(new HeapSample(in.readLong(), in.readLong(), in.readLong(), in.readUTF()));
        }
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.heap().survived(i, in.readLong());
        }
        if (version >= 5) {
            n = count(in, size);
            for (int i = 0; i < n; i++) {
                p.heap().addPool(new PoolUsage(in.readLong(), in.readLong(), in.readBoolean(), in.readUTF(), in.readLong(),
                        in.readLong()));
            }
        }
        if (version >= 6) {
            n = count(in, size);
            for (int i = 0; i < n; i++) {
                p.heap().addClassCount(new ClassCount(in.readLong(), in.readLong(), in.readUTF(), in.readLong(), in.readLong()));
            }
        }
        readMap(in, size, p.labels());
        readMap(in, size, p.metadata());
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.sourceEvents().put(in.readUTF(), in.readLong());
        }
        n = count(in, size);
        for (int i = 0; i < n; i++) {
            p.warnings().add(in.readUTF());
        }
        CallTreeCodec.Stored tree = version >= 3 && in.readBoolean() ? CallTreeCodec.read(in, size) : null;
        if (in.readInt() != MAGIC) {
            throw new IOException("profile file is damaged (no end marker)");
        }
        if (seal) {
            p.seal();
        }
        return new Decoded(p, tree);
    }

    private static int count(BigEndianInput in, long size) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > size) {
            throw new EOFException("profile file is damaged (count " + n + " exceeds its size)");
        }
        return n;
    }

    private static void writeMap(BigEndianOutput out, Map<String, String> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            out.writeUTF(clip(e.getKey()));
            out.writeUTF(clip(e.getValue()));
        }
    }

    private static void readMap(BigEndianInput in, long size, Map<String, String> map) throws IOException {
        int n = count(in, size);
        for (int i = 0; i < n; i++) {
            map.put(in.readUTF(), in.readUTF());
        }
    }

    /** writeUTF takes at most 65535 encoded bytes; longer strings (never seen in practice) are shortened. */
    private static String clip(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 16000 ? s.substring(0, 16000) : s;
    }
}
