package org.jfrworkbench.server.http;

/** A request this server refuses whoever sends it: a foreign Host name, a write from another site's page. */
final class ForbiddenException extends RuntimeException {
    ForbiddenException(String message) {
        super(message);
    }
}
