package org.jfrworkbench.server.http;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Test classes that query one server holding the fixture recordings a and b, uploaded once per class: the server
 * starts before the class's tests and stops after them. The fields are shared by the subclasses, which run one after
 * another (the build runs test classes in turn).
 */
abstract class WithTwoFixtures {
    @TempDir
    static Path data;
    static TestServer server;
    static String a;
    static String b;

    @BeforeAll
    static void startWithFixtures() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        a = server.uploadFixture("a");
        b = server.uploadFixture("b");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }
}
