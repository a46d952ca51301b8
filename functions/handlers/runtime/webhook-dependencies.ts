/**
 * The webhook's own, small set of dependencies. The webhook sits on the API server's request
 * path (2 s timeout), so its bundle must not pull in the Kubernetes client, EC2 or DynamoDB
 * adapters the other functions use: it only reads settings, logs and publishes events.
 */
import { systemClock } from '../../core/ports/clock.js';
import type { Dependencies } from './dependencies.js';
import { eventPublisherFor } from './event-publisher-for.js';
import { logger } from './lambda.js';
import { powertoolsLog } from './log.js';
import { settingsFromEnv } from './settings.js';

/** What the webhook uses of {@link Dependencies}. */
export type WebhookDependencies = Pick<Dependencies, 'settings' | 'log' | 'events' | 'clock'>;

let cached: WebhookDependencies | undefined;

/** The webhook's dependencies from the Lambda environment, built once per process. */
export function webhookDependenciesFromEnv(env: NodeJS.ProcessEnv): WebhookDependencies {
  if (cached) return cached;
  const settings = settingsFromEnv({ ...env });
  let events: Dependencies['events'] | undefined;
  cached = {
    settings,
    clock: systemClock,
    log: powertoolsLog(logger),
    get events() {
      events ??= eventPublisherFor(settings, systemClock);
      return events;
    },
  };
  return cached;
}
