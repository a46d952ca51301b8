import { describe, expect, it } from 'vitest';
import { parseUserData } from '../../../../functions/simulator/kube/kubelet/user-data.js';

const AL2023 = `MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="//"

--//
Content-Type: application/node.eks.aws

---
apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: demo
    apiServerEndpoint: https://example.eks.amazonaws.com
    certificateAuthority: Q0E=
    cidr: 10.100.0.0/16
  kubelet:
    config:
      maxPods: 27
      clusterDNS: [10.100.0.10]
      kubeReserved: { cpu: 80m }
    flags:
      - --node-labels=karpenter.sh/nodepool=default,team=a
      - --register-with-taints=k8s.cni.cncf.io/multus=notready:NoSchedule,dedicated=:NoExecute

--//
Content-Type: text/x-shellscript; charset="us-ascii"

#!/bin/bash
echo hello
--//--
`;

describe('user data parsing', () => {
  it('reads an AL2023 MIME NodeConfig with labels, taints and maxPods', () => {
    const b = parseUserData(AL2023);
    expect(b.format).toBe('AL2023');
    expect(b.clusterName).toBe('demo');
    expect(b.apiServerEndpoint).toBe('https://example.eks.amazonaws.com');
    expect(b.maxPods).toBe(27);
    expect(b.labels).toEqual({ 'karpenter.sh/nodepool': 'default', team: 'a' });
    expect(b.taints).toEqual([
      { key: 'k8s.cni.cncf.io/multus', value: 'notready', effect: 'NoSchedule' },
      { key: 'dedicated', effect: 'NoExecute' },
    ]);
    expect(b.kubeletConfig?.kubeReserved).toEqual({ cpu: '80m' });
  });

  it('reads a base64-encoded NodeConfig part', () => {
    const config =
      'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 11\n';
    const data = `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\nContent-Transfer-Encoding: base64\n\n${Buffer.from(config).toString('base64')}\n--B--\n`;
    expect(parseUserData(data).maxPods).toBe(11);
  });

  it('reads Bottlerocket TOML settings', () => {
    const b = parseUserData(`[settings.kubernetes]
cluster-name = "demo"
api-server = "https://example.eks.amazonaws.com"
cluster-certificate = "Q0E="
max-pods = 58

[settings.kubernetes.node-labels]
"karpenter.sh/nodepool" = "default"
"team" = "b"

[settings.kubernetes.node-taints]
"k8s.cni.cncf.io/multus" = ["notready:NoSchedule"]
"gpu" = ["true:NoSchedule", ":NoExecute"]
`);
    expect(b).toMatchObject({ format: 'Bottlerocket', clusterName: 'demo', maxPods: 58 });
    expect(b.labels).toEqual({ 'karpenter.sh/nodepool': 'default', team: 'b' });
    expect(b.taints).toEqual([
      { key: 'k8s.cni.cncf.io/multus', value: 'notready', effect: 'NoSchedule' },
      { key: 'gpu', value: 'true', effect: 'NoSchedule' },
      { key: 'gpu', effect: 'NoExecute' },
    ]);
  });

  it('reads an AL2 bootstrap.sh call with kubelet extra args', () => {
    const b = parseUserData(`#!/bin/bash
set -ex
/etc/eks/bootstrap.sh 'demo' --apiserver-endpoint 'https://example.eks.amazonaws.com' \\
  --b64-cluster-ca 'Q0E=' --use-max-pods false \\
  --kubelet-extra-args '--node-labels=karpenter.sh/nodepool=default,team=c --register-with-taints=dedicated=infra:NoSchedule --max-pods=17'
`);
    expect(b).toMatchObject({
      format: 'AL2',
      clusterName: 'demo',
      apiServerEndpoint: 'https://example.eks.amazonaws.com',
      maxPods: 17,
    });
    expect(b.labels).toEqual({ 'karpenter.sh/nodepool': 'default', team: 'c' });
    expect(b.taints).toEqual([{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }]);
  });

  it('names what is wrong in bad user data', () => {
    expect(() => parseUserData('echo hi')).toThrow(/not a known node bootstrap format/);
    expect(() => parseUserData(AL2023.replace('dedicated=:NoExecute', 'dedicated=x:Sometimes'))).toThrow(
      /register-with-taints.*key=value:Effect/,
    );
    expect(() => parseUserData('[settings.kubernetes]\nmax-pods = "many"\n')).toThrow(
      /max-pods must be a positive integer/,
    );
    expect(() =>
      parseUserData(
        'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="x"\n\n--x\nContent-Type: text/x-shellscript\n\necho\n--x--\n',
      ),
    ).toThrow(/no part with Content-Type: application\/node.eks.aws/);
  });
});
