package org.jfrworkbench.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jfrworkbench.importer.ImportLimits;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.http.Labels;
import org.jfrworkbench.server.library.RecordingLibrary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code workbench import FILE...}: imports files into a data dir exactly as uploads would be. */
@Command(name = "import", mixinStandardHelpOptions = true, description = "Import recordings into a data directory.")
public final class ImportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = ".jfr, .jfr.gz, .zip of .jfr, or collapsed stacks")
    List<Path> files;

    @Option(names = "--data", defaultValue = "./workbench-data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--name", description = "Display name (default: the file name).")
    String name;

    @Option(names = "--labels", description = "Labels k=v,k=v for every imported file.")
    String labels;

    @Option(names = "--kind", defaultValue = "cpu", description = "Kind of collapsed-stack input (default: ${DEFAULT-VALUE}).")
    String kind;

    @Override
    public Integer call() throws Exception {
        Map<String, String> parsedLabels;
        Kind collapsedKind;
        try {
            parsedLabels = Labels.parse(labels);
            collapsedKind = Kind.parse(kind);
        } catch (RuntimeException e) {
            System.err.println("workbench import: " + e.getMessage());
            return 2;
        }
        int failed = 0;
        try (RecordingLibrary library = RecordingLibrary.open(data, new Importer(ImportLimits.DEFAULT.withTempDir(data.resolve("tmp"))),
                Long.MAX_VALUE)) {
            for (Path f : files) {
                try {
                    RecordingLibrary.Imported r = library.importFile(f, name, parsedLabels, collapsedKind);
                    System.out.println(r.info().id() + (r.created() ? " imported " : " already stored ") + f);
                } catch (java.io.IOException | RuntimeException e) {
                    System.err.println("workbench import: " + f + ": " + e.getMessage());
                    failed++;
                }
            }
        }
        return failed == 0 ? 0 : 1;
    }
}
