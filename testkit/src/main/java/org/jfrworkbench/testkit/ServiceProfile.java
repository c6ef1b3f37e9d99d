package org.jfrworkbench.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A deterministic collapsed-stack profile shaped like a real service's, for the page benchmarks: thousands of
 * classes in a call graph (each method calls a few others), stacks 20 to 120 frames deep that share their upper
 * frames (thread roots, frameworks) and spread out below, recursion, lambdas and inner classes, JIT, inlined,
 * interpreted, native and kernel frames (async-profiler's {@code _[j]} suffixes), and sample counts skewed as real
 * hot spots are. Nothing in it is tuned to a particular renderer.
 */
public final class ServiceProfile {
    private static final String[] AREAS = {"api", "service", "repository", "cache", "codec", "billing", "catalog",
        "checkout", "search", "auth", "metrics", "scheduler", "storage", "pricing", "inventory", "shipping"};
    private static final String[] SUBS = {"impl", "internal", "core", "support", "http", "rpc", "model", "util"};
    private static final String[] WORDS = {"Order", "Cart", "Price", "Stock", "Account", "Session", "Token", "Query",
        "Index", "Record", "Batch", "Event", "Stream", "Buffer", "Cache", "Pool", "Request", "Response", "Route",
        "Filter", "Codec", "Schema", "Ledger", "Invoice", "Payment", "Catalog", "Item", "Customer", "Shipment", "Rate"};
    private static final String[] ROLES = {"Service", "Handler", "Repository", "Mapper", "Controller", "Factory",
        "Resolver", "Validator", "Serializer", "Client", "Manager", "Processor", "Adapter", "Loader", "Builder"};
    private static final String[] VERBS = {"handle", "process", "apply", "get", "put", "load", "resolve", "validate",
        "map", "write", "read", "compute", "dispatch", "encode", "decode", "lookup", "update", "merge", "visit", "run"};
    private static final String[][] ROOTS = {
        {"java.lang.Thread.run", "java.util.concurrent.ThreadPoolExecutor$Worker.run",
            "java.util.concurrent.ThreadPoolExecutor.runWorker"},
        {"java.lang.Thread.run", "io.netty.util.concurrent.FastThreadLocalRunnable.run",
            "io.netty.util.internal.ThreadExecutorMap$2.run", "io.netty.util.concurrent.SingleThreadEventExecutor$4.run",
            "io.netty.channel.nio.NioEventLoop.run", "io.netty.channel.nio.NioEventLoop.processSelectedKeys"},
        {"java.lang.Thread.run", "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.run",
            "org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy.produce",
            "org.eclipse.jetty.server.HttpChannel.handle", "org.eclipse.jetty.server.Server.handle"},
        {"java.lang.Thread.run", "java.util.concurrent.ForkJoinWorkerThread.run", "java.util.concurrent.ForkJoinPool.runWorker",
            "java.util.concurrent.ForkJoinPool.scan", "java.util.concurrent.ForkJoinTask.doExec"},
    };
    private static final String[] LEAVES = {"java.util.HashMap.getNode_[j]", "java.util.HashMap.putVal_[j]",
        "java.lang.String.hashCode_[i]", "java.util.ArrayList.grow_[j]", "java.lang.StringLatin1.indexOf_[i]",
        "jdk.internal.misc.Unsafe.park_[j]", "java.util.Arrays.copyOf_[j]", "java.lang.Object.<init>_[0]",
        "__memmove_avx_unaligned_erms", "pthread_cond_wait", "epoll_wait", "do_syscall_64_[k]", "entry_SYSCALL_64_[k]",
        "SharedRuntime::resolve_opt_virtual_call_C", "ObjAllocator::initialize", "__pthread_mutex_lock"};

    private ServiceProfile() {
    }

    /** {@code stacks} distinct stacks (about 25 flame graph nodes each) as collapsed text, one per line. */
    public static String collapsed(int stacks, long seed) {
        Random random = new Random(seed);
        int classes = 3_000;
        List<String> methods = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            String cls = "com.acme." + AREAS[random.nextInt(AREAS.length)] + "." + SUBS[random.nextInt(SUBS.length)] + "."
                    + WORDS[random.nextInt(WORDS.length)] + WORDS[random.nextInt(WORDS.length)] + ROLES[random.nextInt(ROLES.length)]
                    + (random.nextInt(8) == 0 ? "$" + WORDS[random.nextInt(WORDS.length)] : "");
            int count = 1 + random.nextInt(4);
            for (int m = 0; m < count; m++) {
                String verb = VERBS[random.nextInt(VERBS.length)];
                String name = switch (random.nextInt(12)) {
                    case 0 -> "lambda$" + verb + "$" + random.nextInt(9);
                    case 1 -> verb + WORDS[random.nextInt(WORDS.length)];
                    default -> verb;
                };
                String type = switch (random.nextInt(10)) {
                    case 0, 1 -> "_[i]";
                    case 2 -> "_[0]";
                    case 3 -> "_[1]";
                    default -> "_[j]";
                };
                methods.add(cls + "." + name + type);
            }
        }
        int n = methods.size();
        // a call graph: each method calls a few others (the first most often), so hot paths stay wide for many levels
        int[][] callees = new int[n][];
        for (int m = 0; m < n; m++) {
            callees[m] = new int[1 + random.nextInt(4)];
            for (int k = 0; k < callees[m].length; k++) {
                callees[m][k] = (m + 1 + (int) (Math.abs(random.nextGaussian()) * n / 40)) % n;
            }
        }
        // request shapes: the framework frames on top of stacks, and the method each shape's requests enter by
        int shapes = Math.max(8, stacks / 400);
        List<List<String>> prefixes = new ArrayList<>();
        int[] entries = new int[shapes];
        for (int s = 0; s < shapes; s++) {
            prefixes.add(List.of(ROOTS[random.nextInt(ROOTS.length)]));
            entries[s] = random.nextInt(n);
        }
        StringBuilder out = new StringBuilder(stacks * 3000);
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<String> stack = new ArrayList<>();
        while (seen.size() < stacks) {
            stack.clear();
            // a few request shapes are hot: most samples fall under them
            int shape = (int) Math.min(shapes - 1, Math.abs(random.nextGaussian()) * shapes / 3);
            stack.addAll(prefixes.get(shape));
            int depth = 20 + (int) Math.min(100, Math.abs(random.nextGaussian()) * 35);
            int m = entries[shape];
            while (stack.size() < depth - 1) {
                if (random.nextInt(40) == 0) {
                    // recursion: a method calling itself through a helper, several levels
                    String self = methods.get(m), helper = methods.get(callees[m][0]);
                    for (int r = 0, levels = 2 + random.nextInt(6); r < levels && stack.size() < depth - 2; r++) {
                        stack.add(self);
                        stack.add(helper);
                    }
                }
                stack.add(methods.get(m));
                int[] next = callees[m];
                int k = 0;
                while (k < next.length - 1 && random.nextInt(100) < 35) {
                    k++;
                }
                m = next[k];
            }
            stack.add(LEAVES[random.nextInt(LEAVES.length)]);
            String line = String.join(";", stack);
            if (!seen.add(line)) {
                continue;
            }
            // hot spots: a long tail of single samples and a few heavy stacks
            double u = random.nextDouble();
            long weight = 1 + (long) Math.floor(Math.pow(u, 8) * 400);
            out.append(line).append(' ').append(weight).append('\n');
        }
        return out.toString();
    }
}
