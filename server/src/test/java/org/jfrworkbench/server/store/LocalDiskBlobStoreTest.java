package org.jfrworkbench.server.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalDiskBlobStoreTest {
    @TempDir
    Path dir;
    Path root;
    Path tmp;
    LocalDiskBlobStore blobs;

    @BeforeEach
    void open() throws IOException {
        root = dir.resolve("blobs");
        tmp = dir.resolve("tmp");
        blobs = new LocalDiskBlobStore(root, tmp);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] read(String key) throws IOException {
        try (BlobStore.Blob blob = blobs.open(key)) {
            byte[] content = blob.content().readAllBytes();
            assertEquals(content.length, blob.size(), "the size told matches the bytes read");
            return content;
        }
    }

    private List<Path> files(Path under) throws IOException {
        try (Stream<Path> walk = Files.walk(under)) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void aBlobPutUnderANestedKeyIsReadBackAndReplacedWhole() throws Exception {
        blobs.put("abc/chunks/0001.jfr", out -> out.write(bytes("first")));
        assertArrayEquals(bytes("first"), read("abc/chunks/0001.jfr"));
        blobs.put("abc/chunks/0001.jfr", out -> out.write(bytes("second, longer")));
        assertArrayEquals(bytes("second, longer"), read("abc/chunks/0001.jfr"));
        assertEquals(List.of(), files(tmp), "no temporary file is left");
    }

    @Test
    void putFileCopiesTheBytesAndLeavesTheFileToTheCaller() throws Exception {
        Path source = Files.writeString(tmp.resolve("upload-1"), "uploaded bytes");
        blobs.putFile("r1/original.bin", source);
        assertArrayEquals(bytes("uploaded bytes"), read("r1/original.bin"));
        assertEquals("uploaded bytes", Files.readString(source), "the caller's file is still there, unchanged");
        Files.delete(source);
        assertArrayEquals(bytes("uploaded bytes"), read("r1/original.bin"), "the blob does not depend on it");
    }

    @Test
    void aWriteThatFailsLeavesTheOldBlobAndNoTemporaryFile() throws Exception {
        blobs.put("k/meta.json", out -> out.write(bytes("{\"v\":1}")));
        IOException failure = assertThrows(IOException.class, () -> blobs.put("k/meta.json", out -> {
            out.write(bytes("{\"v\":2, half"));
            throw new IOException("disk full");
        }));
        assertEquals("disk full", failure.getMessage());
        assertArrayEquals(bytes("{\"v\":1}"), read("k/meta.json"));
        assertThrows(IOException.class, () -> blobs.put("new/piece", out -> {
            throw new IOException("no space");
        }));
        assertThrows(NoSuchFileException.class, () -> blobs.open("new/piece"));
        assertEquals(List.of(), files(tmp));
    }

    @Test
    void listGivesEveryKeyUnderAPrefixInOrder() throws Exception {
        for (String key : List.of("b/2", "a/1", "b/1", "ab/1", "b/c/3")) {
            blobs.put(key, out -> out.write(1));
        }
        assertEquals(List.of("a/1", "ab/1", "b/1", "b/2", "b/c/3"), blobs.list(""));
        assertEquals(List.of("b/1", "b/2", "b/c/3"), blobs.list("b/"));
        assertEquals(List.of("a/1", "ab/1"), blobs.list("a"));
        assertEquals(List.of(), blobs.list("zzz/"));
    }

    @Test
    void deleteRemovesTheBlobAndDirectoriesItEmptied() throws Exception {
        blobs.put("r2/original.bin", out -> out.write(1));
        blobs.put("r2/chunks/1", out -> out.write(2));
        blobs.delete("r2/chunks/1");
        assertFalse(Files.exists(root.resolve("r2/chunks")));
        assertTrue(Files.exists(root.resolve("r2/original.bin")));
        blobs.delete("r2/original.bin");
        blobs.delete("r2/original.bin"); // a missing key is no error
        assertFalse(Files.exists(root.resolve("r2")));
        assertEquals(List.of(), blobs.list(""));
        assertTrue(Files.isDirectory(root), "the root stays");
    }

    @Test
    void keysThatCouldLeaveTheRootAreRefused() {
        for (String key : new String[] {"../escape", "a/../../b", "/abs", "a//b", "a/./b", "a/", "", "a\\b", "a/b c",
                "..", "x/.."}) {
            assertThrows(IllegalArgumentException.class, () -> blobs.put(key, out -> out.write(1)), key);
            assertThrows(IllegalArgumentException.class, () -> blobs.open(key), key);
            assertThrows(IllegalArgumentException.class, () -> blobs.delete(key), key);
        }
        assertDoesNotEscape();
    }

    private void assertDoesNotEscape() {
        assertFalse(Files.exists(dir.resolve("escape")));
        assertFalse(Files.exists(dir.resolve("b")));
    }
}
