package org.jfrworkbench.server.library;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.catalog.RecordingNotFoundException;
import org.jfrworkbench.server.index.RecordingIndex;
import org.jfrworkbench.server.index.SearchResult;
import org.jfrworkbench.server.store.BlobStore;
import org.jfrworkbench.server.store.LocalDiskBlobStore;
import org.jfrworkbench.server.store.RecordingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recordings' lifecycle in one place. An upload is staged (hashed as it arrives), imported, its pieces stored
 * with the metadata last ({@link RecordingStore}), then indexed and the index committed; only then is it
 * acknowledged. The store is the truth and the index is derived from it: on open the two are reconciled, so a
 * crash at any moment leaves each recording whole or absent, and a lost or damaged index is rebuilt. Deletes go the
 * other way round; loaded profiles are cached.
 */
public final class RecordingLibrary implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(RecordingLibrary.class);
    static final int ID_LENGTH = 16;

    private final Staging staging;
    private final BlobStore blobs;
    private final RecordingStore store;
    private final RecordingIndex index;
    private final Importer importer;
    private final long maxUpload;
    private final Map<String, RecordingInfo> infos = new ConcurrentHashMap<>();
    private final ProfileCache cache = new ProfileCache(Math.max(32L << 20, Runtime.getRuntime().maxMemory() / 4));
    /** Writes and deletes of one recording never interleave; different recordings go in parallel. */
    private final Object[] locks = new Object[64];

    /** The result of an import: the recording, whether it is new (201) or was stored before (200), and the steps' times. */
    public record Imported(RecordingInfo info, boolean created, UploadTimings timings) {
    }

    /**
     * A library over a data directory on the local disk: {@code recordings/} (the blobs), {@code index/} (Lucene) and
     * {@code tmp/} (the scratch area, emptied here).
     */
    public static RecordingLibrary open(Path dataDir, Importer importer, long maxUpload) throws IOException {
        Staging staging = new Staging(dataDir.resolve("tmp"));
        BlobStore blobs = new LocalDiskBlobStore(dataDir.resolve("recordings"), staging.dir());
        return new RecordingLibrary(staging, blobs, RecordingIndex.open(dataDir.resolve("index")), importer, maxUpload);
    }

    RecordingLibrary(Staging staging, BlobStore blobs, RecordingIndex index, Importer importer, long maxUpload)
            throws IOException {
        this.staging = staging;
        this.blobs = blobs;
        this.store = new RecordingStore(blobs);
        this.index = index;
        this.importer = importer;
        this.maxUpload = maxUpload;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        reconcile();
    }

    /**
     * Makes the index agree with the store: incomplete recordings (a crash before their metadata) are removed,
     * recordings missing from the index (a crash before its commit, or a new index) are indexed from their stored
     * profile, and index entries of recordings that are gone are dropped.
     */
    private void reconcile() throws IOException {
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
            LOG.info("index reconciled with the stored recordings: {} added, {} dropped", added, dropped);
            index.commit();
        }
    }

    /** Streams an upload into the scratch area, hashing on the way; throws when it exceeds the upload limit. */
    public StagedUpload stage(InputStream in) throws IOException {
        return staging.stage(in, maxUpload);
    }

    /**
     * Imports staged bytes and stores, indexes and commits the recording (or finds it stored already: same bytes,
     * same id). The staged file is gone afterwards, whatever happens. labels: the uploader's, which override the
     * recording's own labels of the same name.
     */
    public Imported add(StagedUpload staged, String name, Map<String, String> labels, Kind collapsedKind) throws IOException {
        UploadTimings timings = new UploadTimings();
        timings.add("stage", staged.nanos());
        try {
            String id = staged.sha256().substring(0, ID_LENGTH);
            RecordingInfo known = infos.get(id);
            if (known != null) {
                return new Imported(known, false, timings);
            }
            if (staged.size() == 0) {
                throw new InvalidRecordingException(0, "empty upload");
            }
            Profile profile = importer.read(staged.file(), collapsedKind);
            timings.step("import");
            String display = name == null || name.isBlank() ? "recording-" + id : name;
            RecordingInfo info = RecordingInfo.of(id, staged.sha256(), display, profile, labels, staged.size(),
                    System.currentTimeMillis());
            ProfileData data = new ProfileData(id, profile);
            synchronized (lockFor(id)) {
                known = infos.get(id);
                if (known != null) {
                    return new Imported(known, false, timings);
                }
                store.putOriginal(id, staged.file());
                timings.step("original");
                store.putProfile(id, profile);
                timings.step("profile");
                CrashPoint.reached("import");
                store.commit(info);
                timings.step("meta");
                index.add(info, data);
                timings.step("index");
                CrashPoint.reached("commit");
                index.commit();
                timings.step("commit");
                infos.put(id, info);
                cache.put(id, data);
                return new Imported(info, true, timings);
            }
        } finally {
            staging.discard(staged);
        }
    }

    /** Imports a local file (CLI, bundled samples) exactly like an upload. */
    public Imported importFile(Path file, String name, Map<String, String> labels, Kind collapsedKind) throws IOException {
        StagedUpload staged;
        try (InputStream in = Files.newInputStream(file)) {
            staged = stage(in);
        }
        return add(staged, name == null ? file.getFileName().toString() : name, labels, collapsedKind);
    }

    public RecordingInfo info(String id) {
        RecordingInfo info = id == null ? null : infos.get(id);
        if (info == null) {
            throw new RecordingNotFoundException(id);
        }
        return info;
    }

    /** The recording's info, or null (for the search results of recordings deleted meanwhile). */
    public RecordingInfo findInfo(String id) {
        return infos.get(id);
    }

    public int size() {
        return infos.size();
    }

    /** The loaded profile, from the cache or decoded from the store. */
    public ProfileData load(String id) throws IOException {
        info(id);
        ProfileData data = cache.get(id);
        if (data == null) {
            try {
                data = new ProfileData(id, store.readProfile(id));
            } catch (NoSuchFileException e) {
                throw new RecordingNotFoundException(id); // deleted meanwhile
            }
            cache.put(id, data);
        }
        return data;
    }

    /** The original bytes as uploaded; the caller closes the stream. */
    public InputStream original(String id) throws IOException {
        info(id);
        try {
            return store.openOriginal(id);
        } catch (NoSuchFileException e) {
            throw new RecordingNotFoundException(id);
        }
    }

    /** Removes a recording: from the store first (its metadata before the rest), then from the index. */
    public void delete(String id) throws IOException {
        synchronized (lockFor(id)) {
            info(id);
            store.delete(id);
            infos.remove(id);
            cache.remove(id);
            index.delete(id);
            index.commit();
        }
    }

    /** A page of recordings matching q (Lucene syntax; blank = all), newest upload first, with facet counts. */
    public RecordingIndex.RecordingPage list(String q, int offset, int limit) throws IOException {
        return index.list(q, offset, limit);
    }

    /** Methods matching q across recordings, largest total share first. */
    public SearchResult searchMethods(String q, String kind, int limit) throws IOException {
        return index.searchMethods(q, kind, limit, this::findInfo);
    }

    public long maxUpload() {
        return maxUpload;
    }

    /** The scratch directory, emptied on start: where the HTTP server may spool request bodies. */
    public Path scratchDir() {
        return staging.dir();
    }

    private Object lockFor(String id) {
        return locks[Math.floorMod(id.hashCode(), locks.length)];
    }

    @Override
    public void close() throws IOException {
        try {
            index.close();
        } finally {
            blobs.close();
        }
    }
}
