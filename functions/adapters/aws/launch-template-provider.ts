import type { LaunchTemplateSpec } from '../../core/launch/launch-template.js';
import { toTagList } from '../../core/launch/launch-template.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { Ec2Api } from './ec2-api.js';
import { type Sleep, untilVisible, wallSleep } from './eventual-consistency.js';

/**
 * Gets or creates launch templates. Names are content hashes, so "exists with that name" means
 * "exists with that content": creation is idempotent and a lost race is success. Concurrent
 * launches in one function instance share one lookup per name (single flight): the launches of a
 * provisioning run all need the same few templates, and each asking EC2 on its own turned one
 * CreateLaunchTemplate into one per launch, most of them answered AlreadyExists.
 */
export class LaunchTemplateProvider {
  private readonly known: TtlCache<string>;
  /** Names being looked up or created now, and the id each lookup resolves to. */
  private readonly inFlight = new Map<string, Promise<string>>();

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
    const fresh = new Map<string, LaunchTemplateSpec>();
    const waits: Promise<void>[] = [];
    for (const spec of specs) {
      const id = this.known.get(spec.name);
      if (id) ids.set(spec.name, id);
      else if (!this.inFlight.has(spec.name)) fresh.set(spec.name, spec);
    }
    if (fresh.size > 0) {
      const resolved = this.resolve([...fresh.values()]);
      for (const name of fresh.keys()) {
        const lookup = resolved.then((found) => {
          const id = found.get(name);
          if (!id) throw new Error(`launch template ${name}: EC2 returned no id`);
          return id;
        });
        this.inFlight.set(name, lookup);
        const done = (): void => void this.inFlight.delete(name);
        lookup.then(done, done);
      }
    }
    for (const spec of specs) {
      const lookup = ids.has(spec.name) ? undefined : this.inFlight.get(spec.name);
      if (lookup) waits.push(lookup.then((id) => void ids.set(spec.name, id)));
    }
    await Promise.all(waits);
    return ids;
  }

  /** Looks the templates up in one call and creates the ones EC2 does not have. */
  private async resolve(specs: readonly LaunchTemplateSpec[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const lt of await this.ec2.describeLaunchTemplates(specs.map((s) => s.name))) {
      if (lt.LaunchTemplateName && lt.LaunchTemplateId)
        this.remember(ids, lt.LaunchTemplateName, lt.LaunchTemplateId);
    }
    await Promise.all(specs.filter((s) => !ids.has(s.name)).map((s) => this.create(s, ids)));
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
