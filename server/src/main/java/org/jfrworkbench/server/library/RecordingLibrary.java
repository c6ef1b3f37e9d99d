package org.jfrworkbench.server.library;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

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

/**
 * The recordings' lifecycle in one place. An upload is staged (hashed as it arrives), imported, its pieces stored
 * with the metadata last ({@link RecordingStore}), and then acknowledged; its index entry is made right after, on a
 * thread of its own, and until it is visible the list and the searches wait for it, so that what was acknowledged is
 * found as before. The store is the truth and the index is derived from it: the index is committed shortly after, and
 * on open the two are reconciled ({@link Reconciliation}), so a crash at any moment leaves each recording whole or
 * absent, and a lost or damaged index is rebuilt. Deletes go the same way, store first. Loaded profiles are cached.
 */
public final class RecordingLibrary implements Closeable {
    static final int ID_LENGTH = 16;

    private final Staging staging;
    private final BlobStore blobs;
    private final RecordingStore store;
    private final RecordingIndex index;
    private final Importer importer;
    private final long maxUpload;
    /** A run's parts together: each part's import reads the whole run again, so this bounds the work of one part. */
    private final long maxRun;
    private final Map<String, RecordingInfo> infos = new ConcurrentHashMap<>();
    private final ProfileCache cache = new ProfileCache(Math.max(32L << 20, Runtime.getRuntime().maxMemory() / 4));
    /** Writes and deletes of one recording never interleave; different recordings go in parallel. */
    private final Object[] locks = new Object[64];
    /** Encodes and writes a new recording's pieces, each on its own thread, while the upload's thread waits. */
    private final ExecutorService writers = Executors.newFixedThreadPool(2, daemon("recording-writer"));
    /** New recordings' index entries, made after their answers. */
    private final NewEntries newEntries = new NewEntries(this::index, infos::get, this::load);
    private final IndexCommitter committer;
    /** Decodes under way, by id and version, so that a profile is decoded once however many requests want it. */
    private final Map<String, CompletableFuture<ProfileData>> loading = new ConcurrentHashMap<>();
    private final RunAppender runs;

    /** The result of an import: the recording, whether it is new (201) or was stored before (200), and the steps' times. */
    public record Imported(RecordingInfo info, boolean created, UploadTimings timings) {
    }

    /**
     * A library over a data directory on the local disk: {@code recordings/} (the blobs), {@code index/} (Lucene) and
     * {@code tmp/} (the scratch area, emptied here).
     */
    public static RecordingLibrary open(Path dataDir, Importer importer, long maxUpload) throws IOException {
        return open(dataDir, importer, maxUpload, maxUpload);
    }

    /** As {@link #open(Path, Importer, long)}, with a run's parts bounded to maxRun bytes together. */
    public static RecordingLibrary open(Path dataDir, Importer importer, long maxUpload, long maxRun) throws IOException {
        Staging staging = new Staging(dataDir.resolve("tmp"));
        BlobStore blobs = new LocalDiskBlobStore(dataDir.resolve("recordings"), staging.dir());
        return new RecordingLibrary(staging, blobs, RecordingIndex.open(dataDir.resolve("index")), importer, maxUpload, maxRun);
    }

    RecordingLibrary(Staging staging, BlobStore blobs, RecordingIndex index, Importer importer, long maxUpload)
            throws IOException {
        this(staging, blobs, index, importer, maxUpload, maxUpload);
    }

    RecordingLibrary(Staging staging, BlobStore blobs, RecordingIndex index, Importer importer, long maxUpload, long maxRun)
            throws IOException {
        this.staging = staging;
        this.blobs = blobs;
        this.store = new RecordingStore(blobs);
        this.index = index;
        this.importer = importer;
        this.maxUpload = maxUpload;
        this.maxRun = maxRun;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        try {
            Reconciliation.run(store, index, importer, staging, infos);
        } catch (IOException | RuntimeException e) {
            index.close();
            throw e;
        }
        this.committer = new IndexCommitter(index);
        this.runs = new RunAppender(store, newEntries, staging, importer, maxRun, infos, cache, this::lockFor, this::load);
    }

    /** Streams an upload into the scratch area, hashing on the way; throws when it exceeds the upload limit. */
    public StagedUpload stage(InputStream in) throws IOException {
        return staging.stage(in, maxUpload);
    }

    /** Removes a staged upload that will not be added (an add removes its own, whatever happens). */
    public void discard(StagedUpload staged) throws IOException {
        staging.discard(staged);
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
            synchronized (lockFor(id)) {
                known = infos.get(id);
                if (known != null) {
                    return new Imported(known, false, timings);
                }
                ProfileData data = store(staged, info, profile, timings);
                infos.put(id, info);
                cache.put(id, data);
                newEntries.add(info, data);
                data.prepareInBackground();
                return new Imported(info, true, timings);
            }
        } finally {
            staging.discard(staged);
        }
    }

    /**
     * Builds the profile's call tree and stores the recording's pieces, then commits it with its metadata, or leaves
     * none of it behind. The pieces are written on other threads while this one builds the tree: the profile's model
     * is encoded meanwhile and the tree appended once built (ap-cpualloc-38mb: writing the profile took some 220 ms
     * after the tree's 350-450 ms). Its index entry follows ({@link NewEntries}): a crash before that is committed
     * loses nothing that reconciling cannot index again.
     */
    private ProfileData store(StagedUpload staged, RecordingInfo info, Profile profile, UploadTimings timings)
            throws IOException {
        String id = info.id();
        CompletableFuture<ProfileData> built = new CompletableFuture<>();
        List<Future<?>> pieces = List.of(
                writers.submit(() -> {
                    store.putOriginal(id, staged.file());
                    return null;
                }),
                writers.submit(() -> {
                    store.putProfile(id, profile, () -> await(built, "built"));
                    return null;
                }));
        try {
            ProfileData data;
            try {
                data = new ProfileData(id, profile);
            } catch (RuntimeException | Error e) {
                built.completeExceptionally(e);
                throw e;
            }
            built.complete(data);
            timings.step("prepare");
            for (Future<?> piece : pieces) {
                await(piece, "stored");
            }
            timings.step("store");
            CrashPoint.reached("import");
            store.commit(info);
            timings.step("commit");
            return data;
        } catch (IOException | RuntimeException | Error e) {
            try {
                for (Future<?> piece : pieces) {
                    awaitQuietly(piece);
                }
                store.delete(id);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** Adds a stored recording's entry to the index and makes it visible, unless it was deleted meanwhile. */
    private void index(RecordingInfo info, ProfileData data, Runnable visible) throws IOException {
        RecordingIndex.Entry entry = index.entry(info, data);
        synchronized (lockFor(info.id())) {
            if (infos.get(info.id()) == info) {
                visible.run();
                index.add(entry);
                CrashPoint.reached("commit");
                index.refresh();
                committer.changed();
            }
        }
    }

    /**
     * What a new recording's indexing waits for first, on the indexer's thread: the server's is the recording's first
     * view being prepared, which the uploader asks for next, so that making the entry does not take a core from it
     * (ap-cpualloc-38mb at load 3: the first view 190 ms after the answer while the two ran at once, 91 ms so).
     */
    public void beforeIndexing(Consumer<RecordingInfo> waitFor) {
        newEntries.beforeIndexing(waitFor);
    }

    /**
     * Where the recording's index entry stands: a new recording's entry, or a run's after a part, that failed is
     * retried in the background ({@link NewEntries}), and until it is made the recording is stored but not found by
     * the list and the searches (a run as its previous entry has it).
     */
    public IndexStatus indexStatus(String id) {
        return newEntries.status(info(id).id());
    }

    /** A part of a run as its uploader names it: run key, part number (null: no part, only last), last, time origin. */
    public record RunPart(String runKey, Integer part, boolean last, long runStartMillis) {
    }

    /**
     * Adds a part to a run (see {@link Runs}), creating the run's recording with its first part. The part is read into
     * the run as the parts before left it ({@link RunAppender}; refused, with nothing stored, without a readable chunk),
     * then stored, the run's profile stored, and the metadata that counts the part replaced last; the index entry
     * follows as a new recording's does (after the answer, retried when it fails). A part
     * number stored already with the same bytes changes nothing (but may mark the run ended); with other bytes it is a
     * {@link PartConflictException}. Upload labels merge over the run's (a later part's value of a label wins); the
     * name is the first part's. The run's parts together stay within maxRun bytes; its samples within the importer's limit.
     * The staged file is gone afterwards, whatever happens.
     */
    public Imported addPart(StagedUpload staged, RunPart run, String name, Map<String, String> labels) throws IOException {
        return runs.add(staged, run, name, labels);
    }

    /** What f computed; its failure rethrown as it was thrown. what: for the message when interrupted. */
    private static <T> T await(Future<T> f, String what) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while the recording was " + what);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IOException(e.getCause());
        }
    }

    private static void awaitQuietly(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // reported by the caller's own failure
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

    /** The profile if it is in memory now, else null (loading it would decode it from the store). */
    public ProfileData loaded(String id) {
        info(id);
        return cache.get(id);
    }

    /**
     * The loaded profile, from the cache or decoded from the store. Requests that find it missing at once decode it
     * once: the others wait for that copy instead of each decoding its own. A decode is shared, and cached, only for
     * the version of the recording it began at: a run that grows meanwhile (its newer profile is stored before its
     * newer metadata) must not have a decode of its older profile cached as if it were the newer.
     */
    public ProfileData load(String id) throws IOException {
        RecordingInfo seen = info(id);
        ProfileData data = cache.get(id);
        if (data != null) {
            return data;
        }
        String version = id + "@" + seen.updatedMillis();
        CompletableFuture<ProfileData> mine = new CompletableFuture<>();
        CompletableFuture<ProfileData> other = loading.putIfAbsent(version, mine);
        if (other != null) {
            return await(other, "loaded");
        }
        try {
            data = cache.get(id);
            if (data == null) {
                try {
                    data = store.readProfile(id);
                } catch (NoSuchFileException e) {
                    throw new RecordingNotFoundException(id); // deleted meanwhile
                }
                if (infos.get(id) == seen) {
                    cache.put(id, data);
                    data.prepareInBackground();
                    if (!infos.containsKey(id)) {
                        cache.remove(id); // deleted while it was read: keep no copy, make nothing for it
                        data.discard();
                    }
                }
            }
            mine.complete(data);
            return data;
        } catch (IOException | RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(version, mine);
        }
    }

    /** The original bytes as uploaded (a run's: its parts one after the other, one JFR file); the caller closes the stream. */
    public InputStream original(String id) throws IOException {
        RecordingInfo info = info(id);
        if (info.run() != null) {
            return Runs.openParts(store, id, info.partNumbers());
        }
        try {
            return store.openOriginal(id);
        } catch (NoSuchFileException e) {
            throw new RecordingNotFoundException(id);
        }
    }

    /**
     * Removes a recording: from the store first (its metadata before the rest), then from the index, whose commit
     * follows shortly (a crash before it leaves an index entry that reconciling drops).
     */
    public void delete(String id) throws IOException {
        synchronized (lockFor(id)) {
            info(id);
            store.delete(id);
            infos.remove(id);
            ProfileData data = cache.get(id);
            if (data != null) {
                data.discard(); // its background work still queued is skipped
            }
            cache.remove(id);
            index.delete(id);
            index.refresh();
            committer.changed();
        }
    }

    /** A page of recordings matching q (Lucene syntax; blank = all), newest upload first, with facet counts. */
    public RecordingIndex.RecordingPage list(String q, int offset, int limit) throws IOException {
        newEntries.awaitVisible();
        return index.list(q, offset, limit);
    }

    /** Methods matching q across recordings, largest total share first. */
    public SearchResult searchMethods(String q, String kind, int limit) throws IOException {
        newEntries.awaitVisible();
        return index.searchMethods(q, kind, limit, this::findInfo);
    }

    public long maxUpload() {
        return maxUpload;
    }

    /** The scratch directory, emptied on start: where the HTTP server may spool request bodies. */
    public Path scratchDir() {
        return staging.dir();
    }

    /** Daemon threads of one name: the library's work never keeps the JVM alive. */
    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private Object lockFor(String id) {
        return locks[Math.floorMod(id.hashCode(), locks.length)];
    }

    /** Commits the index and closes it and the store; writes still running are let finish first. */
    @Override
    public void close() throws IOException {
        writers.shutdown();
        // the entries of recordings acknowledged last go into the closing commit (else the next start indexes them)
        newEntries.close();
        try {
            committer.close();
            index.close();
        } finally {
            blobs.close();
        }
    }
}
