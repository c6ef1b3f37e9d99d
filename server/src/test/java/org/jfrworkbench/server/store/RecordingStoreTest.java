package org.jfrworkbench.server.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingStoreTest {
    static final String A = "00000000000000aa";
    static final String B = "00000000000000bb";

    @TempDir
    Path dir;
    Path upload;
    Profile profile;
    /** Every delete the store makes, in order. */
    final List<String> deleted = new ArrayList<>();
    RecordingStore store;

    @BeforeEach
    void open() throws IOException {
        upload = Files.writeString(dir.resolve("upload.txt"), "app.Main.main;app.Work.run 3\napp.Main.main 1\n");
        profile = new Importer().read(upload, Kind.CPU);
        BlobStore disk = new LocalDiskBlobStore(dir.resolve("recordings"), dir.resolve("tmp"));
        store = new RecordingStore(new BlobStore() {
            @Override
            public void put(String key, Content content) throws IOException {
                disk.put(key, content);
            }

            @Override
            public void putFile(String key, Path file) throws IOException {
                disk.putFile(key, file);
            }

            @Override
            public Blob open(String key) throws IOException {
                return disk.open(key);
            }

            @Override
            public List<String> list(String prefix) throws IOException {
                return disk.list(prefix);
            }

            @Override
            public void delete(String key) throws IOException {
                deleted.add(key);
                disk.delete(key);
            }

            @Override
            public void close() throws IOException {
                disk.close();
            }
        });
    }

    private RecordingInfo info(String id) {
        return RecordingInfo.of(id, id + "0".repeat(48), "upload.txt", profile, Map.of(), 42, 1);
    }

    @Test
    void aRecordingIsCommittedOnlyOnceItsMetadataIsWritten() throws Exception {
        store.putOriginal(A, upload);
        store.putProfile(new ProfileData(A, profile));
        assertEquals(new RecordingStore.Inventory(Set.of(), Set.of(A)), store.inventory());
        store.commit(info(A));
        store.putOriginal(B, upload);
        assertEquals(new RecordingStore.Inventory(Set.of(A), Set.of(B)), store.inventory());

        assertEquals(info(A), store.readInfo(A));
        assertEquals(4, store.readProfile(A).profile().samples(Kind.CPU).totalWeight());
        try (InputStream in = store.openOriginal(A)) {
            assertArrayEquals(Files.readAllBytes(upload), in.readAllBytes());
        }
    }

    @Test
    void deleteTakesTheMetadataFirstAndLeavesNothing() throws Exception {
        store.putOriginal(A, upload);
        store.putProfile(new ProfileData(A, profile));
        store.commit(info(A));
        store.delete(A);
        assertEquals(A + "/" + RecordingStore.META, deleted.get(0), "the commit marker goes first");
        assertEquals(Set.of(A + "/" + RecordingStore.ORIGINAL, A + "/" + RecordingStore.PROFILE), Set.copyOf(deleted.subList(1, 3)));
        assertEquals(new RecordingStore.Inventory(Set.of(), Set.of()), store.inventory());
        assertThrows(java.nio.file.NoSuchFileException.class, () -> store.readInfo(A));
    }

    @Test
    void onlyRecordingIdsAreAccepted() {
        assertThrows(IllegalArgumentException.class, () -> store.readInfo("../../etc"));
        assertThrows(IllegalArgumentException.class, () -> store.putOriginal("ABC", upload));
    }
}
