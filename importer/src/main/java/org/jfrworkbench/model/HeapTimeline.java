package org.jfrworkbench.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * GCs (collections only, ordered by start time), other heap readings of a recording, the memory pools' usage around
 * GCs, the exact class counts after some GCs, and for each live sample the last GC it is known to have survived.
 */
public final class HeapTimeline {
    private final List<GcEvent> gcs = new ArrayList<>();
    private final List<HeapSample> samples = new ArrayList<>();
    private final List<PoolUsage> pools = new ArrayList<>();
    private final List<ClassCount> classCounts = new ArrayList<>();
    /** By live sample index: the start of the last GC the sample survived; unset = not bounded. */
    private long[] survived = new long[0];

    public void addGc(GcEvent gc) {
        gcs.add(gc);
    }

    public void addSample(HeapSample sample) {
        samples.add(sample);
    }

    public void addPool(PoolUsage usage) {
        pools.add(usage);
    }

    public void addClassCount(ClassCount count) {
        classCounts.add(count);
    }

    /** Sorts the lists by time; call once the recording is read. */
    public void sort() {
        gcs.sort(Comparator.comparingLong(GcEvent::startNanos).thenComparingLong(GcEvent::gcId));
        samples.sort(Comparator.comparingLong(HeapSample::timeNanos));
        pools.sort(Comparator.comparingLong(PoolUsage::timeNanos).thenComparing(PoolUsage::pool));
        classCounts.sort(Comparator.comparingLong(ClassCount::gcId).thenComparing(ClassCount::bytes, Comparator.reverseOrder()));
    }

    public List<GcEvent> gcs() {
        return gcs;
    }

    public List<HeapSample> samples() {
        return samples;
    }

    public List<PoolUsage> pools() {
        return pools;
    }

    /** The exact class counts after GCs, by GC id, each GC's largest class first. */
    public List<ClassCount> classCounts() {
        return classCounts;
    }

    /**
     * Live sample liveIndex (its index in the live sample table) is known alive up to the GC that started at
     * gcStartNanos: it was reported live after that GC and no later GC before its report.
     */
    public void survived(int liveIndex, long gcStartNanos) {
        if (liveIndex >= survived.length) {
            int old = survived.length;
            survived = Arrays.copyOf(survived, Math.max(liveIndex + 1, old * 2));
            Arrays.fill(survived, old, survived.length, Long.MAX_VALUE);
        }
        survived[liveIndex] = gcStartNanos;
    }

    /**
     * The start of the last GC live sample liveIndex survived; Long.MAX_VALUE when not bounded (samples taken as
     * they are, such as jdk.OldObjectSample, and those of a recording without GCs).
     */
    public long survivedUntil(int liveIndex) {
        return liveIndex < survived.length ? survived[liveIndex] : Long.MAX_VALUE;
    }

    /** How many live samples {@link #survivedUntil} may bound (the rest are not bounded). */
    public int survivedCount() {
        return survived.length;
    }
}
