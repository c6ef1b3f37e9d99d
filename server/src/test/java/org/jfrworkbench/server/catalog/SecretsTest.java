package org.jfrworkbench.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Secret-named settings lose their values in every form a command line writes them; other settings are kept. */
class SecretsTest {
    @Test
    void valuesOfSecretNamedSettingsAreMaskedAndOthersKept() {
        assertEquals("-Xmx1g -Dapp.db.password=**** -Dapi.key=**** -Dfile.encoding=UTF-8",
                Secrets.maskText("-Xmx1g -Dapp.db.password=hunter2 -Dapi.key=k-1 -Dfile.encoding=UTF-8"));
        assertEquals("--db-password **** --port 8080", Secrets.maskText("--db-password hunter3 --port 8080"));
        assertEquals("-javaagent:agent.jar=upload=http://host,token=****",
                Secrets.maskText("-javaagent:agent.jar=upload=http://host,token=t0k3n"));
        assertEquals("AWS_SECRET_ACCESS_KEY=**** HOME=/home/app", Secrets.maskText("AWS_SECRET_ACCESS_KEY=abc/def HOME=/home/app"));
        assertEquals("-Dauth.header=****", Secrets.maskText("-Dauth.header=\"Bearer xyz\""));
        assertEquals("-Dapp.db.password=****", Secrets.maskText(Secrets.maskText("-Dapp.db.password=x")), "idempotent");
    }
}
