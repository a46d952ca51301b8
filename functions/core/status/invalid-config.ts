/**
 * Invalid NodePool / NodeClass objects in the cluster, reported once per change as Karpenter
 * reports them: status conditions `ValidationSucceeded=False` and `Ready=False` with the reason,
 * one Warning event on the object and one log line. The object's own status remembers that its
 * current errors were reported, so runs that read it again stay quiet until it changes. Long values
 * are cut so a 10 KB label cannot flood the log or the status.
 */
import { type Diagnostic, documentLabel } from '../model/config/diagnostic.js';
import type { DocumentSource } from '../model/node-pool.js';
import type { ClusterApi, ConfigDocument } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import { condition } from './conditions.js';
import { conditionsOf, writeRefusal } from './object-refusal.js';

/** Longest part of one error kept in a report. */
const MAX_ERROR_CHARS = 240;
/** Longest report message. */
const MAX_MESSAGE_CHARS = 2_000;
/** The reason of the conditions and of the event. */
export const VALIDATION_FAILED = 'ValidationFailed';
const EVENT_REASON = 'FailedValidation';

/** One invalid object, what is wrong with it, and whether its status already says so. */
export interface InvalidDocument {
  readonly document: ConfigDocument;
  readonly message: string;
  readonly reported: boolean;
}

/** `text` cut to `max` characters, saying how much was left out. */
export function truncated(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The message of an object's errors: each `path: message`, cut, joined with `; `. */
function messageOf(errors: readonly Diagnostic[]): string {
  const parts = errors.map((d) =>
    truncated(d.path === '' ? d.message : `${d.path}: ${d.message}`, MAX_ERROR_CHARS),
  );
  return truncated(parts.join('; '), MAX_MESSAGE_CHARS);
}

/**
 * The invalid objects among `documents` (loaded as `sources` with `diagnostics`; a source's index
 * is its document's position), each with its message and whether its status already reports it.
 */
export function invalidDocuments(
  documents: readonly ConfigDocument[],
  sources: readonly { source: DocumentSource; ok: boolean }[],
  diagnostics: readonly Diagnostic[],
): InvalidDocument[] {
  return sources
    .filter((s) => !s.ok && documents[s.source.index] !== undefined)
    .map(({ source }) => {
      const document = documents[source.index];
      const label = documentLabel(source);
      const errors = diagnostics.filter((d) => d.severity === 'error' && d.document === label);
      const message = messageOf(errors);
      const reported = conditionsOf(document).some(
        (c) => c.type === 'ValidationSucceeded' && c.status === 'False' && c.message === message,
      );
      return { document, message, reported };
    });
}

/**
 * Reports each invalid object whose status does not say so yet: one log line, its status and one
 * Warning event. Best effort: a failed write is logged and the next run reports again.
 */
export async function reportInvalidDocuments(
  cluster: Pick<ClusterApi, 'patchConfigStatus' | 'createEvents'>,
  log: Log,
  invalid: readonly InvalidDocument[],
  now: number,
): Promise<void> {
  for (const { document, message } of invalid.filter((i) => !i.reported)) {
    const { kind } = document;
    const name = document.metadata.name;
    log.error(`ignoring invalid configuration: ${kind}/${name}`, {
      document: `${kind}/${name}`,
      errors: message,
    });
    const conditions = [
      condition('ValidationSucceeded', 'False', VALIDATION_FAILED, message, now),
      condition('Ready', 'False', VALIDATION_FAILED, `${kind} is invalid: ${message}`, now),
    ];
    try {
      await writeRefusal(cluster, document, conditions, {
        reason: EVENT_REASON,
        message: truncated(message, 1_000),
      });
    } catch (error) {
      log.warn('could not report an invalid configuration object, the next run reports it', {
        document: `${kind}/${name}`,
        error: (error as Error).message,
      });
    }
  }
}
