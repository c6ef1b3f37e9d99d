package org.jfrworkbench.importer;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.StackTable;

/**
 * The collapsed-stack text format ({@code root;...;leaf weight}, one line per stack) as the workbench writes it and
 * {@link CollapsedReader} reads it: one definition of how a frame name is written, shared by every writer.
 */
public final class CollapsedFormat {
    /** The frame printed for samples that carry no stack trace. */
    public static final String NO_STACK = "[no stack]";

    private CollapsedFormat() {
    }

    /** A frame name as it appears between the separators of a collapsed line. */
    public static String escapeFrame(String name) {
        return name.replace(';', ':');
    }

    /** Appends a stack root first, frames separated by ';' ({@link #NO_STACK} for stack id -1 or an empty stack). */
    public static StringBuilder appendStack(Profile p, int stack, FrameNaming naming, StringBuilder sb) {
        StackTable stacks = p.stacks();
        if (stack < 0 || stack >= stacks.size() || stacks.depth(stack) == 0) {
            return sb.append(NO_STACK);
        }
        for (int d = stacks.depth(stack) - 1; d >= 0; d--) {
            sb.append(escapeFrame(p.frameName(stacks.frame(stack, d), naming)));
            if (d > 0) {
                sb.append(';');
            }
        }
        return sb;
    }
}
