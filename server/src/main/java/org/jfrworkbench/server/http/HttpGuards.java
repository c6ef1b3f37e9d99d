package org.jfrworkbench.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;

/**
 * What every request passes before a handler: the Host allow-list (DNS rebinding), the same-origin rule for writes
 * (cross-site request forgery), the token, and the headers that keep the page from being framed, sniffed or fed
 * foreign scripts.
 */
final class HttpGuards {
    private final String token;
    private final boolean tokenForReads;
    private final Set<String> allowedHosts;
    private final String contentSecurityPolicy;

    HttpGuards(ServerOptions options) {
        this.token = options.token();
        this.tokenForReads = options.tokenForReads() && options.token() != null;
        this.allowedHosts = allowedHosts(options.allowedHosts());
        this.contentSecurityPolicy = "default-src 'self'; script-src 'self'" + inlineScriptHashes()
                // the flame graph's legend and tooltips set style attributes; no untrusted string reaches a style
                + "; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'"
                + "; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    }

    /** Runs before every request, static files included. */
    void check(Context ctx) {
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Content-Security-Policy", contentSecurityPolicy);
        ctx.header("Cross-Origin-Opener-Policy", "same-origin");
        ctx.header("Cross-Origin-Resource-Policy", "same-origin");
        String host = hostName(ctx.header("Host"));
        if (fromBrowser(ctx) && (host == null || !hostAllowed(host))) {
            throw new ForbiddenException("this server does not answer to the host name '" + clip(ctx.header("Host"))
                    + "'; start it with --allowed-hosts " + (host == null ? "NAME" : clip(host)) + " to allow it");
        }
        boolean write = ctx.method() != HandlerType.GET && ctx.method() != HandlerType.HEAD
                && ctx.method() != HandlerType.OPTIONS;
        try {
            if (write) {
                checkSameOrigin(ctx);
            }
            if (token != null && (write || tokenForReads) && !tokenMatches(ctx.header("Authorization"))) {
                throw new UnauthorizedException(tokenForReads, !ctx.path().startsWith("/api/"));
            }
        } catch (RuntimeException refused) {
            drainSmallBody(ctx);
            throw refused;
        }
    }

    /**
     * Reads a small refused body before the answer: closing a connection with unread bytes makes the kernel reset
     * it, and the client would see the reset instead of the 401 or 403. A large body is left; that connection closes.
     */
    private static void drainSmallBody(Context ctx) {
        long length = ctx.req().getContentLengthLong();
        if (length > 0 && length <= 64 * 1024) {
            try {
                ctx.req().getInputStream().readNBytes((int) length);
            } catch (IOException e) {
                // the client left: nothing to answer anyway
            }
        }
    }

    /**
     * A browser names the page that sent a request in Origin (and, for older ones, in Sec-Fetch-Site); a write is
     * refused unless that page is this server's own. Agents and scripts send neither, and stay as they were.
     */
    private static void checkSameOrigin(Context ctx) {
        String site = ctx.header("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            throw new ForbiddenException("cross-site write refused: the request came from another site (Sec-Fetch-Site: "
                    + clip(site) + ")");
        }
        String origin = ctx.header("Origin");
        if (origin == null) {
            return;
        }
        String expected = ctx.header("Host");
        Matcher m = ORIGIN.matcher(origin.trim().toLowerCase(Locale.ROOT));
        if (expected == null || !m.matches() || !m.group(1).equals(expected.trim().toLowerCase(Locale.ROOT))) {
            throw new ForbiddenException("cross-site write refused: Origin " + clip(origin)
                    + " is not this server; upload from the workbench's own page, or without an Origin header");
        }
    }

    private static final Pattern ORIGIN = Pattern.compile("https?://([^/]+)");

    /**
     * Whether a browser sent the request: it names the fetch (Sec-Fetch-*, which no page can set or remove) or calls
     * itself Mozilla. DNS rebinding happens in browsers only, so only they are held to the Host names; agents and
     * scripts may reach the server by any name their network gives it (a compose service name, say).
     */
    private static boolean fromBrowser(Context ctx) {
        String agent = ctx.header("User-Agent");
        return ctx.header("Sec-Fetch-Mode") != null || ctx.header("Sec-Fetch-Site") != null
                || agent != null && agent.contains("Mozilla/");
    }

    private boolean hostAllowed(String host) {
        // an address literal cannot be re-bound by DNS, so any of this server's possible addresses is fine
        return isAddressLiteral(host) || allowedHosts.contains(host);
    }

    /** The host part of a Host header, lower case, without port or IPv6 brackets; null when malformed. */
    static String hostName(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String h = header.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? null : h.substring(1, end);
        }
        int colon = h.lastIndexOf(':');
        String name = colon < 0 ? h : h.substring(0, colon);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name.matches("[a-z0-9.\\-_]+") ? name : null;
    }

    private static boolean isAddressLiteral(String host) {
        return host.matches("\\d{1,3}(\\.\\d{1,3}){3}") || host.contains(":") && host.matches("[0-9a-f:.]+");
    }

    private static Set<String> allowedHosts(List<String> extra) {
        Set<String> out = new LinkedHashSet<>(List.of("localhost"));
        try {
            InetAddress local = InetAddress.getLocalHost();
            out.add(local.getHostName().toLowerCase(Locale.ROOT));
            out.add(local.getCanonicalHostName().toLowerCase(Locale.ROOT));
        } catch (UnknownHostException e) {
            // no name for this machine: localhost and address literals only
        }
        for (String h : extra) {
            if (!h.isBlank()) {
                out.add(h.trim().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private boolean tokenMatches(String header) {
        if (header == null) {
            return false;
        }
        String given;
        if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            // the scheme is case-insensitive (RFC 7235); Jetty's header cache may also re-case it on a kept-alive connection
            given = header.substring(7).trim();
        } else if (header.regionMatches(true, 0, "Basic ", 0, 6)) {
            // a browser asked by the page's Basic challenge sends the token as the password (any user name)
            try {
                String pair = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
                given = pair.substring(pair.indexOf(':') + 1);
            } catch (IllegalArgumentException e) {
                return false;
            }
        } else {
            return false;
        }
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    /** 'sha256-…' sources for the inline scripts of the page, so that they run and no other inline script does. */
    private static String inlineScriptHashes() {
        StringBuilder out = new StringBuilder();
        try (InputStream in = HttpGuards.class.getResourceAsStream("/public/index.html")) {
            if (in == null) {
                return "";
            }
            String html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>(.*?)</script>", Pattern.DOTALL).matcher(html);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            while (m.find()) {
                out.append(" 'sha256-").append(Base64.getEncoder().encodeToString(
                        sha.digest(m.group(1).getBytes(StandardCharsets.UTF_8)))).append('\'');
            }
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot read the page's scripts", e);
        }
        return out.toString();
    }

    static String clip(String s) {
        if (s == null) {
            return "";
        }
        String printable = s.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 80 ? printable.substring(0, 80) + "..." : printable;
    }
}
