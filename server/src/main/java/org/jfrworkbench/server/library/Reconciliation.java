package org.jfrworkbench.server.library;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.index.RecordingIndex;
import org.jfrworkbench.server.store.RecordingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the store and the index agree on start: incomplete recordings (a crash before their metadata was written)
 * are removed; a recording whose profile an earlier version wrote is imported again from its original; recordings
 * missing from the index (a crash before its commit, or an index lost or rebuilt) are indexed from their profile;
 * index entries of recordings that are gone are dropped; an entry older than its recording (a run's part committed
 * just before a crash, its index entry not yet replaced) is replaced. A run with parts its metadata does not count (a crash, or a
 * failed add, after a part was stored) has its profile made again from the counted parts, then those parts removed.
 */
final class Reconciliation {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciliation.class);

    private final RecordingStore store;
    private final RecordingIndex index;
    private final Importer importer;
    private final Staging staging;
    private int indexed;
    private int reimported;
    private int dropped;

    private Reconciliation(RecordingStore store, RecordingIndex index, Importer importer, Staging staging) {
        this.store = store;
        this.index = index;
        this.importer = importer;
        this.staging = staging;
    }

    /** Reconciles, then commits the index; infos receives every complete recording's info by id. */
    static void run(RecordingStore store, RecordingIndex index, Importer importer, Staging staging,
                    Map<String, RecordingInfo> infos) throws IOException {
        new Reconciliation(store, index, importer, staging).run(infos);
    }

    private void run(Map<String, RecordingInfo> infos) throws IOException {
        RecordingStore.Inventory inventory = store.inventory();
        for (String id : inventory.incomplete()) {
            LOG.warn("removing the pieces of recording {}, which was never completed", id);
            store.delete(id);
        }
        Map<String, Long> inIndex = index.recordingVersions();
        for (String id : inventory.committed()) {
            RecordingInfo info;
            try {
                info = store.readInfo(id);
            } catch (IOException | RuntimeException e) {
                LOG.error("recording {} is left out: its metadata cannot be read ({})", id, e.toString());
                continue;
            }
            try {
                List<Integer> uncounted = info.run() == null ? List.of() : uncountedParts(info);
                Long indexedVersion = inIndex.remove(id);
                if (info.run() != null && (!uncounted.isEmpty() || !store.profileIsCurrent(id))) {
                    info = reimportRun(info, uncounted);
                } else if (!store.profileIsCurrent(id)) {
                    info = reimport(info);
                } else if (indexedVersion == null || indexedVersion != info.updatedMillis()) {
                    index.add(info, store.readProfile(id));
                    indexed++;
                }
            } catch (IOException | RuntimeException e) {
                LOG.error("recording {} is not searchable: its profile cannot be read or made ({})", id, e.toString());
            }
            infos.put(id, info);
        }
        for (String orphan : inIndex.keySet()) {
            index.delete(orphan);
            dropped++;
        }
        if (indexed + reimported + dropped > 0) {
            LOG.info("store and index reconciled: {} recording(s) indexed, {} imported again, {} index entries dropped",
                    indexed, reimported, dropped);
            index.commit();
        }
    }

    private List<Integer> uncountedParts(RecordingInfo info) throws IOException {
        List<Integer> uncounted = new ArrayList<>(store.storedParts(info.id()));
        uncounted.removeAll(info.partNumbers());
        return uncounted;
    }

    /** Makes a run's profile again from the parts its metadata counts, then removes the parts it does not. */
    private RecordingInfo reimportRun(RecordingInfo old, List<Integer> uncounted) throws IOException {
        LOG.info("making the profile of run {} (recording {}) again from its {} part(s); {} uncounted part(s) removed",
                old.run(), old.id(), old.parts(), uncounted.size());
        Profile profile = Runs.importParts(store, staging, importer, old.id(), old.partNumbers(), old.runStartMillis());
        RecordingInfo info = RecordingInfo.of(old.id(), old.sha256(), old.name(), profile, old.labels(), old.sizeBytes(),
                old.uploadedMillis()).asRun(old.run(), old.partNumbers(), old.lastPart(), old.updatedMillis(), old.runStartMillis());
        ProfileData data = new ProfileData(info.id(), profile);
        store.replace(info, data);
        for (int part : uncounted) {
            store.deletePart(info.id(), part);
        }
        index.add(info, data);
        reimported++;
        return info;
    }

    /** Imports a stored original again (its profile's version is outdated) with the name and labels it had. */
    private RecordingInfo reimport(RecordingInfo old) throws IOException {
        LOG.info("importing recording {} again: its profile was written by an earlier version", old.id());
        // a collapsed-stack original has the one kind it was uploaded as; for JFR the kind given is not used
        Kind collapsedKind = old.kinds().size() == 1 ? Kind.parse(old.kinds().keySet().iterator().next()) : Kind.CPU;
        StagedUpload copy;
        try (InputStream in = store.openOriginal(old.id())) {
            copy = staging.stage(in, Long.MAX_VALUE);
        }
        try {
            Profile profile = importer.read(copy.file(), collapsedKind);
            RecordingInfo info = RecordingInfo.of(old.id(), old.sha256(), old.name(), profile, old.labels(),
                    old.sizeBytes(), old.uploadedMillis());
            ProfileData data = new ProfileData(info.id(), profile);
            store.replace(info, data);
            index.add(info, data);
            reimported++;
            return info;
        } finally {
            staging.discard(copy);
        }
    }
}
