package org.jfrworkbench.server.http;

/** A write request came without the server's bearer token. */
public final class UnauthorizedException extends RuntimeException {
    public UnauthorizedException() {
        super("this server needs 'Authorization: Bearer <token>' for uploads and deletes");
    }
}
