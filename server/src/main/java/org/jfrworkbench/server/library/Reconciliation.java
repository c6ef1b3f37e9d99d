package org.jfrworkbench.server.library;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.index.RecordingIndex;
import org.jfrworkbench.server.store.RecordingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the index agree with the store on start: incomplete recordings (a crash before their metadata was written)
 * are removed, recordings missing from the index (a crash before its commit, or an index lost or rebuilt) are
 * indexed from their stored profile, and index entries of recordings that are gone are dropped.
 */
final class Reconciliation {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciliation.class);

    private Reconciliation() {
    }

    /** Reconciles, then commits the index; infos receives every complete recording's info by id. */
    static void run(RecordingStore store, RecordingIndex index, Map<String, RecordingInfo> infos) throws IOException {
        RecordingStore.Inventory inventory = store.inventory();
        for (String id : inventory.incomplete()) {
            LOG.warn("removing the pieces of recording {}, which was never completed", id);
            store.delete(id);
        }
        Set<String> indexed = index.recordingIds();
        int added = 0;
        int dropped = 0;
        for (String id : inventory.committed()) {
            RecordingInfo info;
            try {
                info = store.readInfo(id);
            } catch (IOException | RuntimeException e) {
                LOG.error("recording {} is left out: its metadata cannot be read ({})", id, e.toString());
                continue;
            }
            infos.put(id, info);
            if (!indexed.remove(id)) {
                try {
                    index.add(info, new ProfileData(id, store.readProfile(id)));
                    added++;
                } catch (IOException | RuntimeException e) {
                    LOG.error("recording {} is not searchable: its profile cannot be read ({})", id, e.toString());
                }
            }
        }
        for (String orphan : indexed) {
            index.delete(orphan);
            dropped++;
        }
        if (added + dropped > 0) {
            LOG.info("index reconciled with the stored recordings: {} indexed, {} dropped", added, dropped);
            index.commit();
        }
    }
}
