package org.jfrworkbench.agent.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Checks that a JFR file is complete: a sequence of chunks whose header sizes add up to the file size. */
public final class ChunkFiles {
    private static final int MAGIC = 0x464c5200; // "FLR\0"

    private ChunkFiles() {
    }

    public static boolean isComplete(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long pos = 0;
            ByteBuffer header = ByteBuffer.allocate(16);
            int chunks = 0;
            while (pos < size && chunks < 100_000) {
                header.clear();
                if (ch.read(header, pos) < 16 || header.getInt(0) != MAGIC) {
                    return false;
                }
                long chunkSize = header.getLong(8);
                if (chunkSize <= 16 || pos + chunkSize > size) {
                    return false; // a chunk still being written has size 0 in its header
                }
                pos += chunkSize;
                chunks++;
            }
            return chunks > 0 && pos == size;
        } catch (IOException e) {
            return false;
        }
    }
}
