package org.jfrworkbench.server.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.catalog.RecordingInfo;

/**
 * The pieces of each recording in a {@link BlobStore}, and the order that makes a recording appear whole or not at
 * all. A recording {@code <id>} is the blobs {@code <id>/original.bin} (the uploaded bytes), {@code <id>/profile.wbp}
 * (the imported model, {@link ProfileCodec}) and {@code <id>/meta.json} ({@link RecordingInfo}), its commit marker:
 * written after the other pieces are durable and deleted before them. A recording without it is incomplete, left by
 * a crash, and is discarded. A run that grows chunk by chunk fits the same rule: its parts are the pieces
 * {@code <id>/part-NNNNNNN.jfr} (instead of an original), each durable before the profile that includes it is written
 * and before the metadata that counts it (its part numbers) is replaced. A part the metadata does not count was left
 * by a crash or a failed add; the profile may include it, so it is made again from the counted parts ({@code
 * Reconciliation}). A run's {@code <id>/run-state.bin} (the importer's state after its parts, for the next one) is
 * written after the metadata and names the parts it holds, so a stale one is recognised and not used.
 */
public final class RecordingStore {
    public static final String ORIGINAL = "original.bin";
    public static final String PROFILE = "profile.wbp";
    public static final String META = "meta.json";
    /** A run's open profile and importer state after its counted parts (library.RunState): a cache, checked on use. */
    public static final String RUN_STATE = "run-state.bin";
    private static final String PART_PREFIX = "part-";
    private static final String PART_SUFFIX = ".jfr";
    private static final Pattern ID = Pattern.compile("[0-9a-f]{16}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BlobStore blobs;

    public RecordingStore(BlobStore blobs) {
        this.blobs = blobs;
    }

    /** What the store holds: recordings with their commit marker and every piece, and the rest by id. */
    public record Inventory(Set<String> committed, Set<String> incomplete) {
    }

    public Inventory inventory() throws IOException {
        Map<String, Set<String>> pieces = new HashMap<>();
        for (String key : blobs.list("")) {
            int slash = key.indexOf('/');
            if (slash > 0 && ID.matcher(key.substring(0, slash)).matches()) {
                pieces.computeIfAbsent(key.substring(0, slash), k -> new TreeSet<>()).add(key.substring(slash + 1));
            }
        }
        Set<String> committed = new TreeSet<>();
        Set<String> incomplete = new TreeSet<>();
        pieces.forEach((id, names) -> (names.containsAll(List.of(META, PROFILE))
                && (names.contains(ORIGINAL) || names.stream().anyMatch(n -> n.startsWith(PART_PREFIX))) ? committed : incomplete).add(id));
        return new Inventory(committed, incomplete);
    }

    /** Stores the uploaded bytes from a local file (which stays the caller's). */
    public void putOriginal(String id, Path file) throws IOException {
        blobs.putFile(key(id, ORIGINAL), file);
    }

    /** Stores the profile with its call tree, built once at import (see CallTreeCodec). */
    public void putProfile(ProfileData data) throws IOException {
        putProfile(data.id(), data.profile(), () -> data);
    }

    /**
     * Stores a profile whose call tree may still be being built: the profile is encoded meanwhile and its tree, once
     * tree gives it, appended; a failure there fails the put, which leaves nothing.
     */
    public void putProfile(String id, Profile profile, ProfileCodec.TreeSource tree) throws IOException {
        blobs.put(key(id, PROFILE), out -> ProfileCodec.write(profile, tree, out));
    }

    /** Writes the metadata, which makes the recording whole: call it once the other pieces are durable. */
    public void commit(RecordingInfo info) throws IOException {
        byte[] json = JSON.writeValueAsBytes(info);
        blobs.put(key(info.id(), META), out -> out.write(json));
    }

    public RecordingInfo readInfo(String id) throws IOException {
        try (BlobStore.Blob blob = blobs.open(key(id, META))) {
            return JSON.readValue(blob.content(), RecordingInfo.class);
        }
    }

    /** The stored profile and, where the file keeps one, its call tree. */
    public ProfileData readProfile(String id) throws IOException {
        try (BlobStore.Blob blob = blobs.open(key(id, PROFILE))) {
            ProfileCodec.Decoded decoded = ProfileCodec.decode(blob.content(), blob.size());
            return new ProfileData(id, decoded.profile(), decoded.tree());
        }
    }

    /** Whether the stored profile is of the codec's current version (an earlier one is to be imported again). */
    public boolean profileIsCurrent(String id) throws IOException {
        try (BlobStore.Blob blob = blobs.open(key(id, PROFILE))) {
            return ProfileCodec.isCurrent(blob.content());
        }
    }

    /**
     * Replaces a committed recording's metadata and profile with those of a new import of its original. The
     * metadata goes first: a crash between the two leaves the old profile, which the next start imports again.
     */
    public void replace(RecordingInfo info, ProfileData data) throws IOException {
        commit(info);
        putProfile(data);
    }

    /** Stores a run's part from a local file (which stays the caller's); durable when it returns. */
    public void putPart(String id, int part, Path file) throws IOException {
        blobs.putFile(key(id, partName(part)), file);
    }

    /** A stored part's bytes; the caller closes the blob. */
    public BlobStore.Blob openPart(String id, int part) throws IOException {
        return blobs.open(key(id, partName(part)));
    }

    public void deletePart(String id, int part) throws IOException {
        blobs.delete(key(id, partName(part)));
    }

    /** Stores a run's state from a local file (which stays the caller's), replacing the one before. */
    public void putRunState(String id, Path file) throws IOException {
        blobs.putFile(key(id, RUN_STATE), file);
    }

    /** A run's stored state, or null when it has none; the caller closes the blob. */
    public BlobStore.Blob openRunState(String id) throws IOException {
        try {
            return blobs.open(key(id, RUN_STATE));
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    public void deleteRunState(String id) throws IOException {
        blobs.delete(key(id, RUN_STATE));
    }

    /** The part numbers stored under id, counted by its metadata or not, in order. */
    public List<Integer> storedParts(String id) throws IOException {
        List<Integer> parts = new java.util.ArrayList<>();
        for (String k : blobs.list(key(id, PART_PREFIX))) {
            String name = k.substring(k.indexOf('/') + 1);
            if (name.endsWith(PART_SUFFIX)) {
                try {
                    parts.add(Integer.parseInt(name.substring(PART_PREFIX.length(), name.length() - PART_SUFFIX.length())));
                } catch (NumberFormatException e) {
                    // not one of ours
                }
            }
        }
        parts.sort(null);
        return parts;
    }

    private static String partName(int part) {
        return String.format(java.util.Locale.ROOT, "%s%07d%s", PART_PREFIX, part, PART_SUFFIX);
    }

    /** The uploaded bytes; the caller closes the stream. */
    public InputStream openOriginal(String id) throws IOException {
        return blobs.open(key(id, ORIGINAL)).content();
    }

    /**
     * Removes every piece of a recording, complete or not: its commit marker first, so a crash midway leaves an
     * incomplete recording, never a damaged one.
     */
    public void delete(String id) throws IOException {
        blobs.delete(key(id, META));
        for (String key : blobs.list(key(id, ""))) {
            blobs.delete(key);
        }
    }

    private static String key(String id, String piece) {
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("not a recording id: '" + id + "'");
        }
        return id + "/" + piece;
    }
}
