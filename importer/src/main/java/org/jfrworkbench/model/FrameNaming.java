package org.jfrworkbench.model;

/** How a frame is printed: {@code package.Class.method}, optionally with the descriptor and/or {@code :line}. */
public record FrameNaming(boolean signatures, boolean lines) {
    public static final FrameNaming DEFAULT = new FrameNaming(false, false);
}
