import { describe, expect, it } from 'vitest';
import {
  listConfigDocuments,
  MissingRuleError,
  NODE_CLASS_RESOURCES,
  NODE_POOL_RESOURCES,
} from '../../../../functions/adapters/kube/config-resources.js';
import { KubeApiError } from '../../../../functions/adapters/kube/kube-errors.js';
import type { KubeTransport } from '../../../../functions/adapters/kube/kube-transport.js';
import { controllerClusterRole } from '../../../../functions/core/install/rbac.js';

type Answer = { items: unknown[] } | { status: number; message: string; reason: string };

/** A transport answering GETs of list paths from `answers` (unknown paths: 404). */
function transport(answers: Record<string, Answer>): { rest: KubeTransport; paths: string[] } {
  const paths: string[] = [];
  const rest = {
    get: async (path: string) => {
      paths.push(path);
      const answer = answers[path] ?? {
        status: 404,
        message: 'the server could not find it',
        reason: 'NotFound',
      };
      if ('items' in answer) return { items: answer.items, metadata: {} };
      throw new KubeApiError(`GET ${path}`, answer.status, answer.message, answer.reason);
    },
  } as unknown as KubeTransport;
  return { rest, paths };
}

const forbidden = (resource: string, group: string): Answer => ({
  status: 403,
  reason: 'Forbidden',
  message: `${resource}.${group} is forbidden: User "u" cannot list resource "${resource}" in API group "${group}" at the cluster scope`,
});

describe('listConfigDocuments', () => {
  it('reads the first served version and skips resources that are not installed (404)', async () => {
    const pool = { metadata: { name: 'default' }, spec: {} };
    const { rest, paths } = transport({ '/apis/karpenter.sh/v1beta1/nodepools': { items: [pool] } });
    const docs = await listConfigDocuments(rest, NODE_POOL_RESOURCES);
    expect(docs).toEqual([{ ...pool, apiVersion: 'karpenter.sh/v1beta1', kind: undefined }]);
    expect(paths.sort()).toEqual([
      '/apis/joiner.sh/v1/nodepools',
      '/apis/karpenter.sh/v1/nodepools',
      '/apis/karpenter.sh/v1alpha5/provisioners',
      '/apis/karpenter.sh/v1beta1/nodepools',
    ]);
  });

  it('fails on a 403 with an error naming the rule the ClusterRole lacks, never an empty list', async () => {
    const { rest } = transport({ '/apis/karpenter.sh/v1/nodepools': forbidden('nodepools', 'karpenter.sh') });
    const error = await listConfigDocuments(rest, NODE_POOL_RESOURCES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingRuleError);
    expect((error as MissingRuleError).code).toBe(403);
    expect((error as Error).message).toBe(
      'joiner cannot list nodepools.karpenter.sh (403 Forbidden): the ClusterRole joiner-controller needs ' +
        '{apiGroups: [karpenter.sh], resources: [nodepools], verbs: [list]} (the API server said: ' +
        'nodepools.karpenter.sh is forbidden: User "u" cannot list resource "nodepools" in API group ' +
        '"karpenter.sh" at the cluster scope)',
    );
    const classes = transport({
      '/apis/karpenter.k8s.aws/v1/ec2nodeclasses': { items: [] },
      '/apis/karpenter.k8s.aws/v1alpha1/awsnodetemplates': forbidden('awsnodetemplates', 'karpenter.k8s.aws'),
    });
    await expect(listConfigDocuments(classes.rest, NODE_CLASS_RESOURCES)).rejects.toThrow(
      'joiner cannot list awsnodetemplates.karpenter.k8s.aws (403 Forbidden): the ClusterRole joiner-controller needs {apiGroups: [karpenter.k8s.aws], resources: [awsnodetemplates], verbs: [list]}',
    );
  });

  it('fails on other errors with the resource and the server message', async () => {
    const { rest } = transport({
      '/apis/joiner.sh/v1/nodeclasses': { status: 500, message: 'etcd is down', reason: 'InternalError' },
    });
    await expect(listConfigDocuments(rest, NODE_CLASS_RESOURCES)).rejects.toThrow(
      'listing nodeclasses.joiner.sh/v1 failed (HTTP 500): etcd is down',
    );
  });

  it('is granted by the ClusterRole: a list rule for every config resource joiner reads', () => {
    const rules = controllerClusterRole().rules as {
      apiGroups: string[];
      resources: string[];
      verbs: string[];
    }[];
    for (const resource of [...NODE_POOL_RESOURCES, ...NODE_CLASS_RESOURCES]) {
      const granted = rules.some(
        (r) =>
          r.apiGroups.includes(resource.group) &&
          r.resources.includes(resource.plural) &&
          r.verbs.includes('list'),
      );
      expect(granted, `${resource.plural}.${resource.group}`).toBe(true);
    }
  });
});
