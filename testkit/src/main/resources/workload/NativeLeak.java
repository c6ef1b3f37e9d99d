import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** Native memory for the nativemem tests: churn() mallocs and frees at once, leak() mallocs and never frees. */
public class NativeLeak {
    static final List<MemorySegment> KEPT = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        long end = System.currentTimeMillis() + Long.parseLong(args.length > 0 ? args[0] : "2000");
        while (System.currentTimeMillis() < end) {
            for (int i = 0; i < 50; i++) {
                churn();
            }
            leak();
            Thread.sleep(2);
        }
    }

    static void churn() {
        try (Arena arena = Arena.ofConfined()) {
            arena.allocate(20_000).fill((byte) 1);
        }
    }

    static void leak() {
        KEPT.add(Arena.global().allocate(30_000));
    }
}
