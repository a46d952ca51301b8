/**
 * The shipped launch-failure scenarios (see shipped-scenarios-a.test.ts for why scenarios share a
 * test file): an EC2NodeClass whose EBS KMS key is unusable, and offerings whose capacity is lost
 * at launch. They were part of shipped-scenarios-b.test.ts, which they made the suite's second
 * longest file; on their own the workers share the scenarios more evenly.
 */
import './kms-key-unusable.cases.js';
