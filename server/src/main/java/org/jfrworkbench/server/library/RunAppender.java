package org.jfrworkbench.server.library;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.importer.RecordingTooLargeException;
import org.jfrworkbench.importer.jfr.RunImport;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.catalog.RecordingNotFoundException;
import org.jfrworkbench.server.library.RecordingLibrary.Imported;
import org.jfrworkbench.server.library.RecordingLibrary.RunPart;
import org.jfrworkbench.server.store.RecordingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds the parts of runs for {@link RecordingLibrary#addPart}: under the run's lock, the part is read into the run as
 * the previous part left it ({@link RunState}), so a part's work does not grow with the parts before it; then the part
 * and the run's profile are stored, the metadata that counts the part, and the run's new state; the library's caches
 * follow, and the run's new index entry is made as a new recording's is ({@link NewEntries}: after the answer, retried
 * when it fails, waited for by the list and the searches). A part that comes before the run's last part, or finds no
 * state that fits, is added by reading the run's parts again (in part order, as one file).
 */
final class RunAppender {
    private static final Logger LOG = LoggerFactory.getLogger(RunAppender.class);

    /** Loads a recording's profile as the library does (from its cache or the store). */
    interface Loader {
        ProfileData load(String id) throws IOException;
    }

    private final RecordingStore store;
    private final NewEntries entries;
    private final Staging staging;
    private final Importer importer;
    private final long maxRun;
    private final Map<String, RecordingInfo> infos;
    private final ProfileCache cache;
    private final Function<String, Object> locks;
    private final Loader loader;

    RunAppender(RecordingStore store, NewEntries entries, Staging staging, Importer importer, long maxRun,
                Map<String, RecordingInfo> infos, ProfileCache cache, Function<String, Object> locks, Loader loader) {
        this.store = store;
        this.entries = entries;
        this.staging = staging;
        this.importer = importer;
        this.maxRun = maxRun;
        this.infos = infos;
        this.cache = cache;
        this.locks = locks;
        this.loader = loader;
    }

    Imported add(StagedUpload staged, RunPart run, String name, Map<String, String> labels) throws IOException {
        UploadTimings timings = new UploadTimings();
        timings.add("stage", staged.nanos());
        String id = Runs.id(run.runKey());
        try {
            if (run.part() == null) {
                return new Imported(markEnded(id), false, timings);
            }
            int part = run.part();
            if (staged.size() == 0) {
                throw new InvalidRecordingException(0, "part " + part + " of run " + run.runKey() + " is empty");
            }
            if (!Runs.isJfr(staged.file())) {
                throw new InvalidRecordingException(0, "part " + part + " of run " + run.runKey()
                        + " is not a JFR file: a run's parts are uncompressed JFR chunk files, appended in part order");
            }
            synchronized (locks.apply(id)) {
                RecordingInfo old = infos.get(id);
                if (old != null && old.run() == null) {
                    throw new PartConflictException("recording " + id + " is not a run");
                }
                if (old != null && old.partNumbers().contains(part)) {
                    if (!Runs.sameBytes(store, id, part, staged.sha256())) {
                        throw new PartConflictException("part " + part + " of run " + run.runKey()
                                + " is stored already with other bytes");
                    }
                    RecordingInfo info = run.last() && !Integer.valueOf(part).equals(old.lastPart()) ? markLast(old, part) : old;
                    return new Imported(info, false, timings);
                }
                long size = (old == null ? 0 : old.sizeBytes()) + staged.size();
                if (size > maxRun) {
                    throw new RecordingTooLargeException("run " + run.runKey() + " would hold " + size + " bytes with part "
                            + part + ", more than the run limit of " + maxRun + " bytes (--max-run)");
                }
                List<Integer> parts = new ArrayList<>(old == null ? List.of() : old.partNumbers());
                parts.add(part);
                parts.sort(null);
                long runStart = old != null && old.runStartMillis() > 0 ? old.runStartMillis() : run.runStartMillis();
                Integer last = run.last() ? Integer.valueOf(part) : old == null ? null : old.lastPart();
                Path state = staging.newFile("run-state-");
                try {
                    Profile profile;
                    try {
                        RunImport open = read(old, id, part, staged.file(), runStart, timings);
                        RunState.write(state, parts, runStart, open);
                        timings.step("state");
                        profile = importer.finishRun(open, runStart * 1_000_000);
                        timings.step("finish");
                    } catch (RecordingTooLargeException e) {
                        // the part alone was read: it is the run that outgrew the limit (an uploader may go on in a new run)
                        throw new RecordingTooLargeException("run " + run.runKey() + " would hold too much with part " + part
                                + ": " + e.reason());
                    }
                    return store(old, id, run, part, staged, parts, last, runStart, size, profile, state, name, labels, timings);
                } finally {
                    Files.deleteIfExists(state);
                }
            }
        } finally {
            staging.discard(staged);
        }
    }

    /**
     * The run with the new part read, open: the run's kept state with only the new part read (the part's one import,
     * which also refuses a part without a readable chunk before anything is stored), or, when that state does not fit
     * (a part before the run's last one, a state missing or outdated), the run's parts read again with the new one.
     */
    private RunImport read(RecordingInfo old, String id, int part, Path file, long runStart, UploadTimings timings)
            throws IOException {
        List<Integer> stored = old == null ? List.of() : old.partNumbers();
        RunImport open = null;
        if (old == null) {
            open = importer.startRun();
        } else if (part > stored.get(stored.size() - 1)) {
            open = RunState.resume(store, importer, id, stored, runStart);
            timings.step(open != null ? "resume" : "stale");
        }
        if (open != null) {
            importer.readRunPart(open, file);
            timings.step("import");
            return open;
        }
        importer.read(file); // refused whole, before anything is stored, when it has no readable chunk
        timings.step("check");
        open = Runs.readParts(store, staging, importer, id, stored, part, file);
        timings.step("import");
        return open;
    }

    /**
     * Stores the part, the run's profile and then its metadata (the commit), then the run's state; the library's caches
     * and the index entry follow. Before the commit, a failure takes back what was stored; after it, the part is in.
     */
    private Imported store(RecordingInfo old, String id, RunPart run, int part, StagedUpload staged, List<Integer> parts,
                           Integer last, long runStart, long size, Profile profile, Path state, String name,
                           Map<String, String> labels, UploadTimings timings) throws IOException {
        ProfileData previous = old == null ? null : loader.load(id);
        store.putPart(id, part, staged.file());
        boolean profileWritten = false;
        boolean committed = false;
        try {
            Map<String, String> merged = new LinkedHashMap<>(old == null ? Map.of() : old.labels());
            merged.putAll(labels);
            String display = old != null ? old.name() : name == null || name.isBlank() ? "run " + run.runKey() : name;
            long now = System.currentTimeMillis();
            RecordingInfo info = RecordingInfo.of(id, Runs.sha256(run.runKey()), display, profile, merged, size,
                            old == null ? now : old.uploadedMillis())
                    .asRun(run.runKey(), parts, last, Math.max(now, old == null ? 0 : old.updatedMillis() + 1), runStart);
            ProfileData data = new ProfileData(id, profile);
            profileWritten = true;
            store.putProfile(data);
            timings.step("store");
            CrashPoint.reached("part");
            store.commit(info);
            committed = true;
            timings.step("commit");
            CrashPoint.reached("run-commit");
            try {
                store.putRunState(id, state);
            } catch (IOException e) {
                // the part is in: without a state that fits, the next part reads the run's parts again
                LOG.warn("run {}: its state after part {} was not stored ({})", run.runKey(), part, e.toString());
            }
            timings.step("keep");
            // the newer profile before the newer info: whoever sees this info loads this profile or a later one
            ProfileData superseded = cache.get(id);
            cache.put(id, data);
            if (superseded != null) {
                superseded.discard(); // what is still queued for the run's profile before this part is not made
            }
            // as an upload's: its samples listed per thread and its inverted part made in the background, not by the
            // run's first thread view and first inverted view (several times slower grouped per query)
            data.prepareInBackground();
            publish(info, data);
            return new Imported(info, old == null, timings);
        } catch (IOException | RuntimeException | Error e) {
            if (!committed) {
                try {
                    store.deletePart(id, part);
                    if (old == null) {
                        store.delete(id);
                    } else if (profileWritten) {
                        store.putProfile(previous);
                    }
                } catch (IOException | RuntimeException cleanup) {
                    e.addSuppressed(cleanup); // what is left is what reconciling on the next start repairs
                }
            }
            throw e;
        }
    }

    /** Marks a run ended at its highest part (a later part opens it again). */
    private RecordingInfo markEnded(String id) throws IOException {
        synchronized (locks.apply(id)) {
            RecordingInfo old = infos.get(id);
            if (old == null) {
                throw new RecordingNotFoundException(id);
            }
            if (old.run() == null) {
                throw new PartConflictException("recording " + id + " is not a run");
            }
            Integer highest = old.partNumbers().get(old.partNumbers().size() - 1);
            return highest.equals(old.lastPart()) ? old : markLast(old, highest);
        }
    }

    /** Replaces a run's metadata with one whose part marked last is part; called holding the run's lock. */
    private RecordingInfo markLast(RecordingInfo old, int part) throws IOException {
        RecordingInfo info = old.asRun(old.run(), old.partNumbers(), part,
                Math.max(System.currentTimeMillis(), old.updatedMillis() + 1), old.runStartMillis());
        ProfileData data = loader.load(old.id());
        store.commit(info);
        publish(info, data);
        return info;
    }

    /**
     * Makes a committed run's newer metadata the one views see, and the one lists and searches find once its entry is
     * made; an entry that fails is retried in the background, the part stays acknowledged as stored.
     */
    private void publish(RecordingInfo info, ProfileData data) {
        infos.put(info.id(), info);
        entries.add(info, data);
    }
}
