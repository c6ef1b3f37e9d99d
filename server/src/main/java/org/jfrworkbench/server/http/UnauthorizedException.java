package org.jfrworkbench.server.http;

/** A request came without the server's token: a write, or with {@code --token-for-reads} any request. */
public final class UnauthorizedException extends RuntimeException {
    private final boolean page;

    public UnauthorizedException() {
        this(false, false);
    }

    /** page: a request for the UI itself, answered with a Basic challenge so that the browser asks for the token. */
    UnauthorizedException(boolean reads, boolean page) {
        super(reads ? "this server needs 'Authorization: Bearer <token>' for every request"
                : "this server needs 'Authorization: Bearer <token>' for uploads and deletes");
        this.page = page;
    }

    boolean page() {
        return page;
    }
}
