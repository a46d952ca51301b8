/**
 * The hints of one batch of lifecycle messages, by what they make the function do. A hint is
 * never trusted: handling it re-reads the node, its claim and its pods, so two hints that lead to
 * the same reads do the same work twice. A drain evicts a node's pods in one wave, and each
 * deletion is a PodGone hint; a node's registration, Ready transition and Multus pod are three
 * more. So the hints of a batch are handled once per node and kind of work: every PodGone of one
 * node is one emptiness check, every NodeRegistered / NodeReady / PodReady of one node one
 * reconcile, every NodeDeleted of one object one termination request. Their messages succeed or
 * fail together.
 */
import { DETAIL_TYPES } from '../../shared/event-rules.js';
import type { LifecycleEvent } from './handle-lifecycle-event.js';

/** One piece of work of a batch and the messages that asked for it. */
export interface BatchHint {
  readonly event: LifecycleEvent;
  readonly messageIds: readonly string[];
}

/** What a hint makes the function do, and on what: hints with the same key do the same work. */
export function hintKey(event: LifecycleEvent): string {
  switch (event.detailType) {
    case DETAIL_TYPES.nodeDeleted: {
      const d = event.detail;
      return `deleted\u0000${d.kind}\u0000${d.name}\u0000${d.providerId ?? ''}\u0000${d.nodeClaim ?? ''}`;
    }
    case DETAIL_TYPES.podGone:
      return `gone\u0000${event.detail.nodeName}`;
    default:
      return `reconcile\u0000${event.detail.nodeName}`;
  }
}

/** Groups a batch's hints (see the file comment), in the order each key first appears. */
export function groupHints(
  messages: readonly { readonly messageId: string; readonly event: LifecycleEvent }[],
): BatchHint[] {
  const byKey = new Map<string, { event: LifecycleEvent; messageIds: string[] }>();
  for (const { messageId, event } of messages) {
    const key = hintKey(event);
    const known = byKey.get(key);
    if (known) known.messageIds.push(messageId);
    else byKey.set(key, { event, messageIds: [messageId] });
  }
  return [...byKey.values()];
}
