package org.jfrworkbench.model;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the workbench keeps of one recording: deduplicated strings, methods, frames, stacks and threads,
 * the samples per {@link Kind}, the heap timeline, labels, JVM/OS metadata, per-event-type counts and warnings.
 * Filled by the importer, then {@link #seal sealed}: after that its labels, facts, counts and warnings are
 * read-only views and no sample or state/source name can be added, so no query or server part can change it.
 */
public final class Profile {
    private final StringTable strings = new StringTable();
    private final MethodTable methods = new MethodTable();
    private final FrameTable frames = new FrameTable();
    private final StackTable stacks = new StackTable();
    private final ThreadTable threads = new ThreadTable();
    private final EnumMap<Kind, SampleTable> samples = new EnumMap<>(Kind.class);
    private final Dictionary states = new Dictionary();
    private final Dictionary sources = new Dictionary();
    private final SampleBudget sampleBudget = new SampleBudget();
    private final HeapTimeline heap = new HeapTimeline();
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final Map<String, Long> sourceEvents = new TreeMap<>();
    private final List<String> warnings = new ArrayList<>();
    private int chunks;
    private boolean sealed;
    private long startNanos = Long.MAX_VALUE;
    private long endNanos = Long.MIN_VALUE;

    public StringTable strings() {
        return strings;
    }

    public MethodTable methods() {
        return methods;
    }

    public FrameTable frames() {
        return frames;
    }

    public StackTable stacks() {
        return stacks;
    }

    public ThreadTable threads() {
        return threads;
    }

    public HeapTimeline heap() {
        return heap;
    }

    /** Labels recorded in the file or given at import (service, version, host, any k=v). */
    public Map<String, String> labels() {
        return sealed ? java.util.Collections.unmodifiableMap(labels) : labels;
    }

    /** Ends the import: from now on the profile cannot change (see the class comment). */
    public void seal() {
        sealed = true;
        frames.seal();
        methods.seal();
        stacks.seal();
        states.seal();
        sources.seal();
        for (SampleTable t : samples.values()) {
            t.seal();
        }
    }

    public boolean sealed() {
        return sealed;
    }

    /** JVM/OS facts, e.g. jvmName, jvmVersion, javaVersion, jvmArguments, osVersion, cpu, producer. */
    public Map<String, String> metadata() {
        return sealed ? java.util.Collections.unmodifiableMap(metadata) : metadata;
    }

    /** Events read per JFR event type name (all types, not only profiling ones). */
    public Map<String, Long> sourceEvents() {
        return sealed ? java.util.Collections.unmodifiableMap(sourceEvents) : sourceEvents;
    }

    public List<String> warnings() {
        return sealed ? java.util.Collections.unmodifiableList(warnings) : warnings;
    }

    /**
     * Bounds the samples of all kinds together while importing: past the limit, adding one throws
     * {@link SampleLimitExceededException} before the memory for it is allocated.
     */
    public void limitSamples(long max) {
        sampleBudget.limit(max);
    }

    /** The samples of a kind, created on first use. */
    public SampleTable samples(Kind kind) {
        SampleTable t = samples.get(kind);
        if (t == null) {
            t = new SampleTable(kind, states, sources, sampleBudget);
            if (sealed) {
                t.seal(); // an empty table of a kind the recording lacks, not kept
            } else {
                samples.put(kind, t);
            }
        }
        return t;
    }

    /** The thread states of samples as recorded (JFR's {@code jdk.types.ThreadState} names, e.g. STATE_RUNNABLE). */
    public Dictionary states() {
        return states;
    }

    /** The samplers the samples come from ({@link Sources}). */
    public Dictionary sources() {
        return sources;
    }

    /** Kinds that have at least one sample, in {@link Kind} order. */
    public Map<Kind, SampleTable> kinds() {
        Map<Kind, SampleTable> present = new EnumMap<>(Kind.class);
        samples.forEach((k, t) -> {
            if (t.size() > 0) {
                present.put(k, t);
            }
        });
        return present;
    }

    public int chunks() {
        return chunks;
    }

    public void addChunk(long chunkStartNanos, long chunkDurationNanos) {
        checkOpen();
        chunks++;
        coverTime(chunkStartNanos);
        coverTime(chunkStartNanos + chunkDurationNanos);
    }

    /** Widens the recording's time span to include t (epoch nanoseconds). */
    public void coverTime(long t) {
        checkOpen();
        if (t < startNanos) {
            startNanos = t;
        }
        if (t > endNanos) {
            endNanos = t;
        }
    }

    /** Epoch nanoseconds of the first moment covered, 0 when nothing was timed. */
    public long startNanos() {
        return startNanos == Long.MAX_VALUE ? 0 : startNanos;
    }

    public long endNanos() {
        return endNanos == Long.MIN_VALUE ? startNanos() : endNanos;
    }

    public long startMillis() {
        return startNanos() / 1_000_000;
    }

    public long durationMillis() {
        return (endNanos() - startNanos()) / 1_000_000;
    }

    public void countEvent(String type, long n) {
        checkOpen();
        sourceEvents.merge(type, n, Long::sum);
    }

    public void warn(String message) {
        checkOpen();
        warnings.add(message);
    }

    private void checkOpen() {
        if (sealed) {
            throw new IllegalStateException("the profile is sealed: it cannot change after import");
        }
    }

    /** A frame's display name: {@code package.Class.method}, plus descriptor and/or line as asked. */
    public String frameName(int frame, FrameNaming naming) {
        int method = frames.method(frame);
        String cls = strings.get(methods.className(method));
        String name = strings.get(methods.name(method));
        StringBuilder sb = new StringBuilder(cls.length() + name.length() + 8);
        if (!cls.isEmpty()) {
            sb.append(cls).append('.');
        }
        sb.append(name);
        if (naming.signatures()) {
            sb.append(strings.get(methods.descriptor(method)));
        }
        if (naming.lines() && frames.line(frame) > 0) {
            sb.append(':').append(frames.line(frame));
        }
        return sb.toString();
    }

    public String frameName(int frame) {
        return frameName(frame, FrameNaming.DEFAULT);
    }

    /** Approximate heap bytes of the whole model (tables by capacity, strings by length); for caches' budgets. */
    public long footprint() {
        long bytes = 1024 + strings.footprint() + methods.footprint() + frames.footprint() + stacks.footprint()
                + threads.footprint() + 96L * (heap.gcs().size() + heap.samples().size()) + 80L * (heap.pools().size() + heap.classCounts().size())
                + 8L * heap.survivedCount();
        for (SampleTable t : samples.values()) {
            bytes += t.footprint();
        }
        for (Map<String, ?> m : List.of(labels, metadata, sourceEvents)) {
            for (Map.Entry<String, ?> e : m.entrySet()) {
                bytes += 120 + e.getKey().length() + String.valueOf(e.getValue()).length();
            }
        }
        for (String w : warnings) {
            bytes += 48 + w.length();
        }
        return bytes;
    }
}
