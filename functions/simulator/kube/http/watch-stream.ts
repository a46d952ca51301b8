/**
 * Chunked watch responses: newline-delimited JSON `{type, object}` events (ADDED / MODIFIED /
 * DELETED / BOOKMARK), resumable from a resourceVersion, with an ERROR event carrying a 410 `Status`
 * when the requested version is older than the retained history.
 */
import type { ServerResponse } from 'node:http';
import { ApiError } from '../api/api-error.js';
import type { KubeApi } from '../api/kube-api.js';
import { type ListOptions, selectorFilter } from '../api/list-options.js';
import type { KubeObject, StoreEvent } from '../api/object-store.js';
import { apiVersionOf, type ResourceType, storageKey } from '../api/resource-registry.js';

/** Options of one watch request. */
export interface WatchRequest extends ListOptions {
  readonly resourceVersion?: string;
  readonly allowWatchBookmarks?: boolean;
}

/** An open watch: the server keeps these to send bookmarks and to end them on close. */
export interface OpenWatch {
  bookmark(): void;
  end(): void;
}

/** Starts streaming a watch on `res`; returns its handle (already ended on 410). */
export function startWatch(
  api: KubeApi,
  type: ResourceType,
  req: WatchRequest,
  res: ServerResponse,
  onEnd: () => void,
): OpenWatch {
  const matches = selectorFilter(req);
  const present = (o: KubeObject): KubeObject => ({ ...o, apiVersion: apiVersionOf(type), kind: type.kind });
  const send = (type: string, object: unknown): void => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  let lastVersion = api.store.currentVersion();
  const forward = (e: StoreEvent): void => {
    if (e.resource !== storageKey(type)) return;
    lastVersion = e.resourceVersion;
    const now = matches(e.object);
    const before = e.oldObject !== undefined && e.type !== 'ADDED' && matches(e.oldObject);
    if (e.type === 'DELETED') {
      if (before || now) send('DELETED', present(e.object));
    } else if (now) send(before || e.type === 'ADDED' ? e.type : 'ADDED', present(e.object));
    else if (before) send('DELETED', present(e.object));
  };
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache',
  });
  res.flushHeaders();
  const handle: OpenWatch = {
    bookmark: () => {
      if (req.allowWatchBookmarks)
        send('BOOKMARK', {
          kind: type.kind,
          apiVersion: apiVersionOf(type),
          metadata: { resourceVersion: String(lastVersion) },
        });
    },
    end: () => {
      unsubscribe();
      if (!res.writableEnded) res.end();
    },
  };
  const rv = req.resourceVersion;
  if (rv === undefined || rv === '' || rv === '0') {
    for (const obj of api.list(type, { ...req, limit: undefined, continue: undefined }).items)
      send('ADDED', obj);
  } else {
    const events = api.store.eventsSince(storageKey(type), Number(rv));
    if (events === 'expired' || Number.isNaN(Number(rv))) {
      const gone = new ApiError(
        410,
        'Expired',
        `too old resource version: ${rv} (${api.store.currentVersion()})`,
      );
      send('ERROR', gone.toStatus());
      res.end();
      onEnd();
      return { bookmark: () => {}, end: () => {} };
    }
    for (const e of events) forward(e);
  }
  const unsubscribe = api.store.subscribe(forward);
  handle.bookmark();
  res.on('close', () => {
    unsubscribe();
    onEnd();
  });
  return handle;
}
