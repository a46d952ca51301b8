/** AL2023 user data (a nodeadm NodeConfig part) as joiner writes it, for simulated kubelets in tests. */

/** Options of {@link nodeConfigUserData}. */
export interface NodeConfigOptions {
  readonly cluster?: string;
  readonly endpoint?: string;
  /** Kubelet flags, e.g. `--node-labels=karpenter.sh/nodepool=default`. */
  readonly flags: readonly string[];
  readonly maxPods?: number;
}

/** A MIME multipart user data with one NodeConfig part. */
export function nodeConfigUserData(o: NodeConfigOptions): string {
  const config = o.maxPods === undefined ? '' : `    config:\n      maxPods: ${o.maxPods}\n`;
  return `MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="JOINER"

--JOINER
Content-Type: application/node.eks.aws

apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: ${o.cluster ?? 'demo'}
    apiServerEndpoint: ${o.endpoint ?? 'https://demo.example'}
    certificateAuthority: Q0E=
    cidr: 10.100.0.0/16
  kubelet:
${config}    flags:
${o.flags.map((f) => `      - ${f}`).join('\n')}
--JOINER--
`;
}
