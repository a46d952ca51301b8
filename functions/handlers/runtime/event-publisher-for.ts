import { createEventBridgeClient, EventBridgePublisher } from '../../adapters/aws/event-publisher.js';
import type { Clock } from '../../core/ports/clock.js';
import type { EventPublisher } from '../../core/ports/event-publisher.js';
import type { Settings } from './settings.js';

/** The publisher to joiner's bus for these settings (endpoint override and credentials included). */
export function eventPublisherFor(settings: Settings, clock: Clock): EventPublisher {
  const client = createEventBridgeClient({
    region: settings.region,
    endpoint: settings.endpoints.eventBridge,
    credentials: settings.credentials,
  });
  return new EventBridgePublisher(client, { busName: settings.busName, clock });
}
