package org.jfrworkbench.agent;

import com.sun.tools.attach.VirtualMachine;

/** Dynamic attach through the JDK's Attach API (module jdk.attach, present in every JDK, absent from JREs). */
final class Attacher {
    private Attacher() {
    }

    static void attach(String pid, String jar, String options) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(pid);
        try {
            vm.loadAgent(jar, options);
        } finally {
            vm.detach();
        }
    }
}
