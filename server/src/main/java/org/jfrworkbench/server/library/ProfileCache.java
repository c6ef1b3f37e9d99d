package org.jfrworkbench.server.library;

import org.jfrworkbench.analysis.ProfileData;

/** Least-recently-used loaded profiles within a byte budget (the most recent one always stays). */
final class ProfileCache extends ByteBudgetCache<String, ProfileData> {
    ProfileCache(long budget) {
        super(budget, ProfileData::approximateBytes);
    }
}
