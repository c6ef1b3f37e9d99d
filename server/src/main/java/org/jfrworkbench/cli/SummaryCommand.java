package org.jfrworkbench.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.jfrworkbench.analysis.Summary;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Profile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code workbench summary FILE}: the recording's chunks, time span, kinds, event counts and warnings as JSON. */
@Command(name = "summary", mixinStandardHelpOptions = true,
        description = "Print a JSON summary of a recording (.jfr, .jfr.gz, .zip, collapsed text).")
public final class SummaryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the recording")
    Path file;

    @Override
    public Integer call() {
        return CliErrors.guard(spec, () -> {
            Profile profile = new Importer().read(file);
            ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            spec.commandLine().getOut().println(json.writeValueAsString(Summary.of(profile)));
            spec.commandLine().getOut().flush();
        });
    }
}
