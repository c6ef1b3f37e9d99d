package org.jfrworkbench.server.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.catalog.RecordingNotFoundException;
import org.jfrworkbench.server.index.RecordingIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data dir: {@code recordings/<id>/} holds the original bytes, the derived profile ({@link ProfileCodec}) and
 * meta.json; {@code index/} is the Lucene index; {@code tmp/} stages imports. A recording is staged in tmp,
 * fsynced, then its directory is renamed into place atomically, and only then indexed and committed. On open the
 * files and the index are reconciled, so a crash at any moment leaves each recording fully there or absent.
 */
public final class RecordingStore implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(RecordingStore.class);
    static final int ID_LENGTH = 16;
    static final String ORIGINAL = "original.bin";
    static final String PROFILE = "profile.wbp";
    static final String META = "meta.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path recordings;
    private final Path tmp;
    private final Importer importer;
    private final long maxUpload;
    private final RecordingIndex index;
    private final Map<String, RecordingInfo> infos = new ConcurrentHashMap<>();
    private final ProfileCache cache;
    private final Object commitLock = new Object();

    /** The result of an import: the recording and whether it is new (201) or was already stored (200). */
    public record Imported(RecordingInfo info, boolean created) {
    }

    public RecordingStore(Path root, Importer importer, long maxUpload) throws IOException {
        this.recordings = Files.createDirectories(root.resolve("recordings"));
        this.tmp = Files.createDirectories(root.resolve("tmp"));
        this.importer = importer;
        this.maxUpload = maxUpload;
        this.cache = new ProfileCache(Math.max(32L << 20, Runtime.getRuntime().maxMemory() / 4));
        this.index = new RecordingIndex(Files.createDirectories(root.resolve("index")));
        reconcile();
    }

    public Path tmpDir() {
        return tmp;
    }

    public RecordingIndex index() {
        return index;
    }

    public long maxUpload() {
        return maxUpload;
    }

    private void reconcile() throws IOException {
        deleteTree(tmp);
        Files.createDirectories(tmp);
        Set<String> indexed = index.recordingIds();
        boolean changed = false;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(recordings)) {
            for (Path dir : dirs) {
                String id = dir.getFileName().toString();
                RecordingInfo info = readComplete(dir);
                if (info == null || !id.equals(info.id())) {
                    LOG.warn("removing incomplete recording directory {}", dir);
                    deleteTree(dir);
                    changed = true;
                    continue;
                }
                if (!ProfileCodec.isCurrent(dir.resolve(PROFILE))) {
                    LOG.info("re-importing recording {}: its profile file is of an earlier version", id);
                    info = reimport(dir, info);
                    infos.put(id, info);
                    index.delete(id);
                    index.add(info, load(id));
                    indexed.remove(id);
                    changed = true;
                    continue;
                }
                infos.put(id, info);
                if (!indexed.remove(id)) {
                    LOG.info("re-indexing recording {} found without an index entry", id);
                    index.add(info, load(id));
                    changed = true;
                }
            }
        }
        for (String orphan : indexed) {
            LOG.info("dropping index entry of recording {} whose files are gone", orphan);
            index.delete(orphan);
            changed = true;
        }
        if (changed) {
            index.commit();
        }
    }

    /**
     * Imports a stored original again and replaces its profile and meta files (each written aside, fsynced and
     * renamed over the old one): a profile of an earlier version may hold kinds classified by older rules.
     */
    private RecordingInfo reimport(Path dir, RecordingInfo old) throws IOException {
        Kind collapsedKind = old.kinds().size() == 1 ? Kind.parse(old.kinds().keySet().iterator().next()) : Kind.CPU;
        Profile profile = importer.read(dir.resolve(ORIGINAL), collapsedKind);
        RecordingInfo info = RecordingInfo.of(old.id(), old.sha256(), old.name(), profile, old.labels(), old.sizeBytes(),
                old.uploadedMillis());
        Path profileTmp = tmp.resolve(old.id() + "-" + PROFILE);
        Path metaTmp = tmp.resolve(old.id() + "-" + META);
        ProfileCodec.write(profile, profileTmp);
        JSON.writeValue(metaTmp.toFile(), info);
        fsync(profileTmp, false);
        fsync(metaTmp, false);
        // meta first: a crash between the two leaves the old profile, so the next start re-imports again
        Files.move(metaTmp, dir.resolve(META), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.move(profileTmp, dir.resolve(PROFILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsync(dir, true);
        return info;
    }

    private static RecordingInfo readComplete(Path dir) {
        try {
            if (!Files.isRegularFile(dir.resolve(ORIGINAL)) || Files.size(dir.resolve(PROFILE)) < 8) {
                return null;
            }
            return JSON.readValue(dir.resolve(META).toFile(), RecordingInfo.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Streams an upload into a fresh staging dir, hashing on the way; throws when it exceeds the limit. */
    public Staged stage(InputStream in) throws IOException {
        Path dir = Files.createDirectory(tmp.resolve(UUID.randomUUID().toString()));
        try {
            MessageDigest sha = sha256();
            long size = 0;
            byte[] buf = new byte[1 << 16];
            try (InputStream din = new DigestInputStream(in, sha);
                 OutputStream out = Files.newOutputStream(dir.resolve(ORIGINAL), StandardOpenOption.CREATE_NEW)) {
                int r;
                while ((r = din.read(buf)) > 0) {
                    size += r;
                    if (size > maxUpload) {
                        throw new UploadTooLargeException(maxUpload);
                    }
                    out.write(buf, 0, r);
                    if (size >= 1 << 16 && size - r < 1 << 16) { // once per upload, mid-body
                        CrashPoint.reached("upload");
                    }
                }
            }
            return new Staged(dir, HexFormat.of().formatHex(sha.digest()), size);
        } catch (IOException | RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
    }

    /** Bytes received into a staging dir, not yet a recording. */
    public record Staged(Path dir, String sha256, long size) {
    }

    /**
     * Imports staged bytes: parses them, writes profile and meta, fsyncs, renames into place, indexes and commits.
     * The staging dir is gone afterwards whatever happens.
     */
    public Imported commit(Staged staged, String name, Map<String, String> labels, Kind collapsedKind) throws IOException {
        try {
            String id = staged.sha256().substring(0, ID_LENGTH);
            RecordingInfo known = infos.get(id);
            if (known != null) {
                return new Imported(known, false);
            }
            Path original = staged.dir().resolve(ORIGINAL);
            if (staged.size() == 0) {
                throw new org.jfrworkbench.importer.InvalidRecordingException(0, "empty upload");
            }
            Profile profile = importer.read(original, collapsedKind);
            String display = name == null || name.isBlank() ? "recording-" + id : name;
            RecordingInfo info = RecordingInfo.of(id, staged.sha256(), display, profile, labels, staged.size(),
                    System.currentTimeMillis());
            ProfileCodec.write(profile, staged.dir().resolve(PROFILE));
            CrashPoint.reached("import");
            JSON.writeValue(staged.dir().resolve(META).toFile(), info);
            for (String f : List.of(ORIGINAL, PROFILE, META)) {
                fsync(staged.dir().resolve(f), false);
            }
            fsync(staged.dir(), true);
            ProfileData data = new ProfileData(id, profile);
            synchronized (commitLock) {
                known = infos.get(id);
                if (known != null) {
                    return new Imported(known, false);
                }
                Path target = recordings.resolve(id);
                Files.move(staged.dir(), target, StandardCopyOption.ATOMIC_MOVE);
                fsync(recordings, true);
                index.add(info, data);
                CrashPoint.reached("commit");
                index.commit();
                infos.put(id, info);
                cache.put(id, data);
                return new Imported(info, true);
            }
        } finally {
            deleteTree(staged.dir());
        }
    }

    /** Imports a local file (CLI, bundled samples) exactly like an upload. */
    public Imported importFile(Path file, String name, Map<String, String> labels, Kind collapsedKind) throws IOException {
        Staged staged;
        try (InputStream in = Files.newInputStream(file)) {
            staged = stage(in);
        }
        return commit(staged, name == null ? file.getFileName().toString() : name, labels, collapsedKind);
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

    /** The loaded profile, from the in-memory cache or decoded from its profile file. */
    public ProfileData load(String id) throws IOException {
        info(id);
        ProfileData data = cache.get(id);
        if (data == null) {
            data = new ProfileData(id, ProfileCodec.read(recordings.resolve(id).resolve(PROFILE)));
            cache.put(id, data);
        }
        return data;
    }

    /** The original bytes as uploaded. */
    public Path original(String id) {
        info(id);
        return recordings.resolve(id).resolve(ORIGINAL);
    }

    /** Removes a recording: its directory leaves atomically first, then the index entry is committed away. */
    public void delete(String id) throws IOException {
        synchronized (commitLock) {
            info(id);
            Path trash = tmp.resolve("deleted-" + id + "-" + UUID.randomUUID());
            Files.move(recordings.resolve(id), trash, StandardCopyOption.ATOMIC_MOVE);
            fsync(recordings, true);
            infos.remove(id);
            cache.remove(id);
            index.delete(id);
            index.commit();
            deleteTree(trash);
        }
    }

    private static void fsync(Path path, boolean directory) throws IOException {
        try (FileChannel ch = FileChannel.open(path, directory ? StandardOpenOption.READ : StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.forEach(paths::add);
        }
        paths.sort(Comparator.reverseOrder());
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        index.close();
    }
}
