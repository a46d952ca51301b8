/**
 * The notices of one batch of interruption messages, by instance: EventBridge delivers at least
 * once and AWS sends several events about one instance (a spot warning, a rebalance, a state
 * change), so one batch can name an instance many times. Each instance's notices are handled one
 * after the other in batch order, a repeated notice (same kind and state) once; different
 * instances are handled in parallel.
 */
import type { InterruptionNotice } from './interruption-notice.js';

/** A notice to handle and the messages it came in (they succeed or fail with it). */
export interface BatchNotice {
  readonly notice: InterruptionNotice;
  readonly messageIds: readonly string[];
}

/** What grouping gave: per instance, its distinct notices in batch order; and the repeats dropped. */
export interface GroupedNotices {
  readonly byInstance: ReadonlyMap<string, readonly BatchNotice[]>;
  readonly duplicates: readonly { readonly notice: InterruptionNotice; readonly messageId: string }[];
}

/** Groups the notices of a batch's messages (see the file comment). */
export function groupNotices(
  messages: readonly { readonly messageId: string; readonly notices: readonly InterruptionNotice[] }[],
): GroupedNotices {
  const byInstance = new Map<string, { notice: InterruptionNotice; messageIds: string[] }[]>();
  const duplicates: { notice: InterruptionNotice; messageId: string }[] = [];
  for (const { messageId, notices } of messages) {
    for (const notice of notices) {
      const list = byInstance.get(notice.instanceId) ?? [];
      byInstance.set(notice.instanceId, list);
      const same = list.find((b) => b.notice.kind === notice.kind && b.notice.state === notice.state);
      if (!same) {
        list.push({ notice, messageIds: [messageId] });
        continue;
      }
      duplicates.push({ notice, messageId });
      if (!same.messageIds.includes(messageId)) same.messageIds.push(messageId);
    }
  }
  return { byInstance, duplicates };
}
