import type { LaunchTemplateSpec } from '../../core/launch/launch-template.js';
import { toTagList } from '../../core/launch/launch-template.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { Ec2Api } from './ec2-api.js';
import { type Sleep, untilVisible, wallSleep } from './eventual-consistency.js';

/**
 * Gets or creates launch templates. Names are content hashes, so "exists with that name" means
 * "exists with that content": creation is idempotent and a lost race is success.
 */
export class LaunchTemplateProvider {
  private readonly known: TtlCache<string>;

  constructor(
    private readonly ec2: Ec2Api,
    now: () => number = Date.now,
    private readonly sleep: Sleep = wallSleep,
  ) {
    this.known = new TtlCache(CACHE_TTLS.launchTemplatesMs, now);
  }

  /** Ensures every template exists; returns name -> launch template id. */
  async ensure(specs: readonly LaunchTemplateSpec[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    const missing = specs.filter((s) => {
      const id = this.known.get(s.name);
      if (id) ids.set(s.name, id);
      return !id;
    });
    if (missing.length === 0) return ids;
    for (const lt of await this.ec2.describeLaunchTemplates(missing.map((s) => s.name))) {
      if (lt.LaunchTemplateName && lt.LaunchTemplateId)
        this.remember(ids, lt.LaunchTemplateName, lt.LaunchTemplateId);
    }
    await Promise.all(missing.filter((s) => !ids.has(s.name)).map((s) => this.create(s, ids)));
    return ids;
  }

  private async create(spec: LaunchTemplateSpec, ids: Map<string, string>): Promise<void> {
    try {
      const lt = await this.ec2.createLaunchTemplate({
        LaunchTemplateName: spec.name,
        ClientToken: spec.name.slice(-64),
        LaunchTemplateData: spec.data as never,
        TagSpecifications: [{ ResourceType: 'launch-template', Tags: toTagList(spec.tags) }],
      });
      if (lt?.LaunchTemplateId) this.remember(ids, spec.name, lt.LaunchTemplateId);
    } catch (error) {
      if (!/AlreadyExists/.test((error as { name?: string }).name ?? '')) throw error;
      // Created a moment ago by another launch: DescribeLaunchTemplates may not list it yet.
      const [lt] =
        (await untilVisible(
          () => this.ec2.describeLaunchTemplates([spec.name]),
          (found) => found.length > 0,
          this.sleep,
        )) ?? [];
      if (!lt?.LaunchTemplateId) throw error;
      this.remember(ids, spec.name, lt.LaunchTemplateId);
    }
  }

  private remember(ids: Map<string, string>, name: string, id: string): void {
    ids.set(name, id);
    this.known.set(name, id);
  }
}
