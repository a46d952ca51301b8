/**
 * More shipped scenarios played in one test process (see shipped-scenarios-a.test.ts): Karpenter's
 * seeds, specialist capacity, capacity reservations and the one-file-set comparison. The
 * launch-failure scenarios are in launch-failure-scenarios.test.ts.
 */
import './one-file-set.cases.js';
import './specialist-capacity.cases.js';
import './capacity-reservations.cases.js';
import './seed-karpenter-scenarios.cases.js';
