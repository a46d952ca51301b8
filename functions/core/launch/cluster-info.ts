/** What a node needs to know to join the cluster. */
export interface ClusterInfo {
  readonly name: string;
  /** API server URL, e.g. `https://ABC.gr7.us-west-2.eks.amazonaws.com`. */
  readonly endpoint: string;
  /** Base64 PEM of the cluster CA. */
  readonly certificateAuthority: string;
  /** Service CIDR, e.g. `10.100.0.0/16`. */
  readonly serviceCidr: string;
}
