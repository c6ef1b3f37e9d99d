package org.jfrworkbench.testkit.jfr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The chunks of a JFR file, each a complete JFR file by itself (a file is their concatenation). */
public final class JfrChunks {
    private JfrChunks() {
    }

    public static List<byte[]> split(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        List<byte[]> chunks = new ArrayList<>();
        int offset = 0;
        while (offset < all.length) {
            long size = ByteBuffer.wrap(all, offset + 8, 8).getLong();
            if (size <= 0 || offset + size > all.length) {
                throw new IOException(file + ": chunk at " + offset + " says " + size + " bytes");
            }
            chunks.add(Arrays.copyOfRange(all, offset, offset + (int) size));
            offset += (int) size;
        }
        return chunks;
    }
}
