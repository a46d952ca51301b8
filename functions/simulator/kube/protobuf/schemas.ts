/**
 * Field numbers of the Kubernetes API messages the simulated API server decodes from protobuf
 * bodies: what `kubectl create deployment | namespace | configmap` and `kubectl run` send (client-go's typed clients
 * encode built-in kinds as protobuf). The numbers are those of k8s.io/api and k8s.io/apimachinery's generated.proto.
 */

/** How one field decodes: a scalar, a nested message, a map (string keys) or a Time. */
export type FieldSpec =
  | {
      readonly name: string;
      readonly type: 'string' | 'int' | 'bool';
      readonly repeated?: boolean;
      readonly keepZero?: boolean;
    }
  | { readonly name: string; readonly type: 'message'; readonly message: string; readonly repeated?: boolean }
  | { readonly name: string; readonly type: 'map'; readonly value: 'string' | 'quantity' }
  | { readonly name: string; readonly type: 'time' }
  /** Output-only content (status): accepted and left out, as the API server ignores it on create. */
  | { readonly name: string; readonly type: 'ignored' };

/** Message name → field number → spec. */
export const MESSAGES: Readonly<Record<string, Readonly<Record<number, FieldSpec>>>> = {
  Unknown: {
    1: { name: 'typeMeta', type: 'message', message: 'TypeMeta' },
    2: { name: 'raw', type: 'string' }, // bytes: read by the envelope decoder itself
    3: { name: 'contentEncoding', type: 'string' },
    4: { name: 'contentType', type: 'string' },
  },
  TypeMeta: { 1: { name: 'apiVersion', type: 'string' }, 2: { name: 'kind', type: 'string' } },
  ObjectMeta: {
    1: { name: 'name', type: 'string' },
    2: { name: 'generateName', type: 'string' },
    3: { name: 'namespace', type: 'string' },
    4: { name: 'selfLink', type: 'string' },
    5: { name: 'uid', type: 'string' },
    6: { name: 'resourceVersion', type: 'string' },
    7: { name: 'generation', type: 'int' },
    8: { name: 'creationTimestamp', type: 'time' },
    9: { name: 'deletionTimestamp', type: 'time' },
    10: { name: 'deletionGracePeriodSeconds', type: 'int' },
    11: { name: 'labels', type: 'map', value: 'string' },
    12: { name: 'annotations', type: 'map', value: 'string' },
    14: { name: 'finalizers', type: 'string', repeated: true },
  },
  LabelSelector: {
    1: { name: 'matchLabels', type: 'map', value: 'string' },
    2: { name: 'matchExpressions', type: 'message', message: 'LabelSelectorRequirement', repeated: true },
  },
  LabelSelectorRequirement: {
    1: { name: 'key', type: 'string' },
    2: { name: 'operator', type: 'string' },
    3: { name: 'values', type: 'string', repeated: true },
  },
  Deployment: {
    1: { name: 'metadata', type: 'message', message: 'ObjectMeta' },
    2: { name: 'spec', type: 'message', message: 'DeploymentSpec' },
    3: { name: 'status', type: 'ignored' },
  },
  DeploymentSpec: {
    1: { name: 'replicas', type: 'int', keepZero: true },
    2: { name: 'selector', type: 'message', message: 'LabelSelector' },
    3: { name: 'template', type: 'message', message: 'PodTemplateSpec' },
    4: { name: 'strategy', type: 'message', message: 'DeploymentStrategy' },
    5: { name: 'minReadySeconds', type: 'int' },
    6: { name: 'revisionHistoryLimit', type: 'int', keepZero: true },
    7: { name: 'paused', type: 'bool' },
    9: { name: 'progressDeadlineSeconds', type: 'int', keepZero: true },
  },
  DeploymentStrategy: { 1: { name: 'type', type: 'string' } },
  Namespace: {
    1: { name: 'metadata', type: 'message', message: 'ObjectMeta' },
    2: { name: 'spec', type: 'message', message: 'NamespaceSpec' },
    3: { name: 'status', type: 'ignored' },
  },
  NamespaceSpec: { 1: { name: 'finalizers', type: 'string', repeated: true } },
  ConfigMap: {
    1: { name: 'metadata', type: 'message', message: 'ObjectMeta' },
    2: { name: 'data', type: 'map', value: 'string' },
    4: { name: 'immutable', type: 'bool' },
  },
  Pod: {
    1: { name: 'metadata', type: 'message', message: 'ObjectMeta' },
    2: { name: 'spec', type: 'message', message: 'PodSpec' },
    3: { name: 'status', type: 'ignored' },
  },
  PodTemplateSpec: {
    1: { name: 'metadata', type: 'message', message: 'ObjectMeta' },
    2: { name: 'spec', type: 'message', message: 'PodSpec' },
  },
  PodSpec: {
    2: { name: 'containers', type: 'message', message: 'Container', repeated: true },
    3: { name: 'restartPolicy', type: 'string' },
    4: { name: 'terminationGracePeriodSeconds', type: 'int', keepZero: true },
    6: { name: 'dnsPolicy', type: 'string' },
    7: { name: 'nodeSelector', type: 'map', value: 'string' },
    8: { name: 'serviceAccountName', type: 'string' },
    9: { name: 'serviceAccount', type: 'string' },
    10: { name: 'nodeName', type: 'string' },
    11: { name: 'hostNetwork', type: 'bool' },
    12: { name: 'hostPID', type: 'bool' },
    13: { name: 'hostIPC', type: 'bool' },
    16: { name: 'hostname', type: 'string' },
    17: { name: 'subdomain', type: 'string' },
    19: { name: 'schedulerName', type: 'string' },
    24: { name: 'priorityClassName', type: 'string' },
  },
  Container: {
    1: { name: 'name', type: 'string' },
    2: { name: 'image', type: 'string' },
    3: { name: 'command', type: 'string', repeated: true },
    4: { name: 'args', type: 'string', repeated: true },
    5: { name: 'workingDir', type: 'string' },
    6: { name: 'ports', type: 'message', message: 'ContainerPort', repeated: true },
    7: { name: 'env', type: 'message', message: 'EnvVar', repeated: true },
    8: { name: 'resources', type: 'message', message: 'ResourceRequirements' },
    13: { name: 'terminationMessagePath', type: 'string' },
    14: { name: 'imagePullPolicy', type: 'string' },
    16: { name: 'stdin', type: 'bool' },
    17: { name: 'stdinOnce', type: 'bool' },
    18: { name: 'tty', type: 'bool' },
    20: { name: 'terminationMessagePolicy', type: 'string' },
  },
  ContainerPort: {
    1: { name: 'name', type: 'string' },
    2: { name: 'hostPort', type: 'int' },
    3: { name: 'containerPort', type: 'int' },
    4: { name: 'protocol', type: 'string' },
    5: { name: 'hostIP', type: 'string' },
  },
  EnvVar: { 1: { name: 'name', type: 'string' }, 2: { name: 'value', type: 'string' } },
  ResourceRequirements: {
    1: { name: 'limits', type: 'map', value: 'quantity' },
    2: { name: 'requests', type: 'map', value: 'quantity' },
  },
};

/** The kinds whose protobuf bodies are decoded, by `apiVersion/kind`. */
export const DECODABLE_KINDS: Readonly<Record<string, string>> = {
  'apps/v1/Deployment': 'Deployment',
  'v1/Pod': 'Pod',
  'v1/Namespace': 'Namespace',
  'v1/ConfigMap': 'ConfigMap',
};
