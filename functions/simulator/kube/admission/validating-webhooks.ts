/**
 * The validating admission step of the simulated API server: for every request, the webhooks of
 * the registered `ValidatingWebhookConfiguration`s whose rules, selectors and CEL match conditions
 * match are called with an `AdmissionReview` (admission.k8s.io/v1), honouring `timeoutSeconds` and
 * `failurePolicy`; a webhook answering `allowed: false` denies the request.
 */
import type { LabelSelector } from '../../../core/model/kube-objects.js';
import type { SeededRandom, VirtualClock } from '../../clock.js';
import type { AdmissionAttributes, AdmissionHook } from '../api/admission-types.js';
import { ApiError } from '../api/api-error.js';
import type { KubeApi } from '../api/kube-api.js';
import { randomUid } from '../api/object-defaults.js';
import { CelBindings, evaluateConditions, type MatchCondition } from './cel-conditions.js';
import { type ArmTimer, postJson } from './post-json.js';
import { ruleMatches, selectorsMatch, type WebhookRule } from './webhook-rules.js';

/** One webhook of a configuration (the fields the simulator honours). */
export interface ValidatingWebhook {
  readonly name: string;
  readonly clientConfig: { url?: string; caBundle?: string; service?: { name: string; namespace: string } };
  readonly rules?: WebhookRule[];
  readonly failurePolicy?: 'Ignore' | 'Fail';
  readonly timeoutSeconds?: number;
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly matchConditions?: MatchCondition[];
}

const OPTIONS_KIND = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
  CONNECT: '',
};

/** Builds the AdmissionReview request body for a request. */
export function admissionRequest(a: AdmissionAttributes, uid: string): Record<string, unknown> {
  const kind = { group: a.type.group, version: a.type.version, kind: a.type.kind };
  const resource = { group: a.type.group, version: a.type.version, resource: a.type.plural };
  const requestKind = a.requestKind ?? kind;
  return {
    uid,
    kind: requestKind,
    resource,
    ...(a.subresource ? { subResource: a.subresource, requestSubResource: a.subresource } : {}),
    requestKind,
    requestResource: resource,
    name: a.name,
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: a.userInfo,
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    dryRun: a.dryRun,
    options: OPTIONS_KIND[a.operation]
      ? { apiVersion: 'meta.k8s.io/v1', kind: OPTIONS_KIND[a.operation] }
      : null,
  };
}

/**
 * The admission hook that calls the registered validating webhooks. Their `timeoutSeconds` run on
 * `clock` when it runs by itself (a simulation: virtual time, so a busy host does not time them
 * out), else on wall time.
 */
export function validatingWebhookAdmission(
  api: KubeApi,
  random: SeededRandom,
  clock?: VirtualClock,
): AdmissionHook {
  const arm: ArmTimer = (fn, ms) => {
    if (clock?.autoSpeed === undefined) {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    }
    const handle = clock.setTimeout(fn, ms);
    return () => clock.clearTimeout(handle);
  };
  return async (a) => {
    if (a.type.group === 'admissionregistration.k8s.io') return;
    const configType = api.typeOf('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration');
    const webhooks = api
      .view(configType)
      .flatMap((c) =>
        ((c.webhooks ?? []) as ValidatingWebhook[]).map((w) => ({ config: c.metadata.name, w })),
      );
    if (webhooks.length === 0) return;
    const nsObject = a.namespace
      ? api.peek(api.typeOf('v1', 'Namespace'), undefined, a.namespace)
      : undefined;
    const uid = randomUid(random);
    const request = admissionRequest(a, uid);
    const bindings = new CelBindings({
      object: a.object ?? null,
      oldObject: a.oldObject ?? null,
      request,
      namespaceObject: nsObject ?? null,
    });
    await Promise.all(webhooks.map(({ w }) => callIfMatching(w, a, request, bindings, nsObject, arm)));
  };
}

async function callIfMatching(
  w: ValidatingWebhook,
  a: AdmissionAttributes,
  request: Record<string, unknown>,
  bindings: CelBindings,
  nsObject: { metadata: { labels?: Record<string, string> } } | undefined,
  arm: ArmTimer,
): Promise<void> {
  if (!(w.rules ?? []).some((r) => ruleMatches(r, a))) return;
  if (!selectorsMatch(w, a, nsObject?.metadata.labels)) return;
  const failOpen = w.failurePolicy === 'Ignore';
  const cond = evaluateConditions(w.matchConditions ?? [], bindings);
  if ('error' in cond) {
    if (failOpen) return;
    throw new ApiError(500, 'InternalError', `failed calling webhook "${w.name}": ${cond.error}`);
  }
  if (!cond.matched) return;
  let review: {
    response?: {
      uid?: string;
      allowed?: boolean;
      status?: { code?: number; message?: string; reason?: string };
    };
  };
  try {
    if (!w.clientConfig.url)
      throw new Error(
        'clientConfig.service is not reachable from the simulated API server; use clientConfig.url',
      );
    const timeoutMs = (w.timeoutSeconds ?? 10) * 1000;
    review = (await postJson(
      w.clientConfig.url,
      { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request },
      timeoutMs,
      w.clientConfig.caBundle,
      arm,
    )) as typeof review;
    if (!review?.response || typeof review.response.allowed !== 'boolean')
      throw new Error('the AdmissionReview response has no response.allowed');
    if (review.response.uid !== request.uid)
      throw new Error(`expected response.uid=${String(request.uid)}, got ${review.response.uid}`);
  } catch (err) {
    if (failOpen) return;
    throw new ApiError(
      500,
      'InternalError',
      `Internal error occurred: failed calling webhook "${w.name}": ${(err as Error).message}`,
    );
  }
  if (!review.response.allowed) {
    const status = review.response.status ?? {};
    const detail = status.message ? `: ${status.message}` : '';
    throw new ApiError(
      status.code ?? 400,
      'BadRequest',
      `admission webhook "${w.name}" denied the request${detail}`,
    );
  }
}
