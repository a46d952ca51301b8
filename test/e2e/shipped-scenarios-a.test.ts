/**
 * Shipped scenarios that each check one feature, played in one test process. A scenario file of
 * its own paid a fresh process each: loading the simulator, the AWS SDK clients and joiner's
 * handlers, and warming them up, cost more CPU than playing a small scenario. Each `*.cases.ts`
 * keeps its own tests; the scenarios run one after another, each in its own simulated cloud. The
 * first one pays the process's warm-up (joiner's handlers are loaded with the first cloud), so a
 * case with a generous timeout comes first.
 */
import './node-overlay.cases.js';
import './seed-000-multus.cases.js';
import './efa.cases.js';
import './static-nodepool.cases.js';
import './topology-keys.cases.js';
import './zone-id.cases.js';
import './live-catalog-scenarios.cases.js';
