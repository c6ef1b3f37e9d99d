package org.jfrworkbench.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** GCs (ordered by start time) and other heap readings of a recording. */
public final class HeapTimeline {
    private final List<GcEvent> gcs = new ArrayList<>();
    private final List<HeapSample> samples = new ArrayList<>();

    public void addGc(GcEvent gc) {
        gcs.add(gc);
    }

    public void addSample(HeapSample sample) {
        samples.add(sample);
    }

    /** Sorts both lists by time; call once the recording is read. */
    public void sort() {
        gcs.sort(Comparator.comparingLong(GcEvent::startNanos).thenComparingLong(GcEvent::gcId));
        samples.sort(Comparator.comparingLong(HeapSample::timeNanos));
    }

    public List<GcEvent> gcs() {
        return gcs;
    }

    public List<HeapSample> samples() {
        return samples;
    }
}
