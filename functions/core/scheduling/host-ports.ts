/**
 * Host ports, as the kube-scheduler's NodePorts plugin sees them: the `hostPort`s of a pod's
 * containers (init containers do not count), each bound to a host IP (`0.0.0.0`, every address,
 * when unset) and a protocol (`TCP` when unset). Two uses of the same port and protocol conflict
 * when either binds `0.0.0.0` or both bind the same IP.
 */
import type { Pod } from '../model/kube-objects.js';

/** One host port a pod binds. */
export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** Every address of the node: the host IP a port binds when `hostIP` is unset. */
export const ANY_HOST_IP = '0.0.0.0';

/** The host ports of a pod's containers, defaults applied; ports of 0 or less (none asked) are left out. */
export function hostPortsOf(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      const port = p.hostPort ?? 0;
      if (!(port > 0)) continue;
      out.push({ ip: p.hostIP || ANY_HOST_IP, protocol: p.protocol || 'TCP', port });
    }
  }
  return out;
}

/** `protocol/port` of a host port. */
function protocolPort(p: HostPort): string {
  return `${p.protocol}/${p.port}`;
}

/** The host ports in use on one node (or planned nodeclaim): per `protocol/port`, how often each IP binds it. */
export class HostPortUsage {
  private readonly used = new Map<string, Map<string, number>>();

  /** Whether any of `ports` conflicts with a port in use. */
  conflicts(ports: readonly HostPort[]): boolean {
    for (const p of ports) {
      const ips = this.used.get(protocolPort(p));
      if (!ips) continue;
      if (p.ip === ANY_HOST_IP || ips.has(ANY_HOST_IP) || ips.has(p.ip)) return true;
    }
    return false;
  }

  /** The first of `ports` that conflicts, written `hostIP:port/protocol`; undefined when none does. */
  conflict(ports: readonly HostPort[]): string | undefined {
    for (const p of ports) if (this.conflicts([p])) return `${p.ip}:${p.port}/${p.protocol}`;
    return undefined;
  }

  add(ports: readonly HostPort[]): void {
    for (const p of ports) {
      const key = protocolPort(p);
      const ips = this.used.get(key) ?? new Map<string, number>();
      this.used.set(key, ips);
      ips.set(p.ip, (ips.get(p.ip) ?? 0) + 1);
    }
  }

  remove(ports: readonly HostPort[]): void {
    for (const p of ports) {
      const key = protocolPort(p);
      const ips = this.used.get(key);
      const n = (ips?.get(p.ip) ?? 0) - 1;
      if (!ips) continue;
      if (n > 0) ips.set(p.ip, n);
      else ips.delete(p.ip);
      if (ips.size === 0) this.used.delete(key);
    }
  }
}
