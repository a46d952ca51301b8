import * as z from 'zod';
import { selectorTerm, taintOrString } from './common.js';
import { celRules } from './crd-rules.js';
import { resourceDocument } from './document.js';
import { lazySchema } from './lazy-schema.js';
import { ec2NodeClassSpecV1Shape } from './v1.js';

/**
 * The most Multus interfaces of one NodeClass: Karpenter's bound on an EC2NodeClass's
 * `networkInterfaces` (`maxItems`), which also bounds the cost of the CEL rule comparing every
 * pair of interfaces.
 */
export const MAX_MULTUS_INTERFACES = 150;

/** One extra ENI for Multus (joiner.sh/v1 NodeClass `spec.multusInterfaces[]`). */
const multusInterface = () =>
  z.object({
    // At most 30 terms, as an EC2NodeClass's: besides the limit, maxItems bounds how often a real
    // API server counts each term's CEL rules when it estimates their cost at CRD create.
    subnetSelectorTerms: z
      .array(selectorTerm)
      .min(1, 'a Multus interface needs at least one subnet selector term')
      .max(30),
    securityGroupSelectorTerms: z
      .array(selectorTerm)
      .min(1, 'a Multus interface needs at least one security group selector term')
      .max(30),
    deviceIndex: z
      .number()
      .int()
      .min(1, 'deviceIndex 0 is the primary interface; Multus interfaces start at 1'),
    networkCardIndex: z.number().int().min(0).optional(),
    disableSourceDestCheck: z.boolean().optional(),
    ipv6AddressCount: z.number().int().min(0).optional(),
  });

/** `joiner.sh/v1` NodeClass: the v1 EC2NodeClass spec plus the Multus extension. */
export const nodeClassJoinerV1 = lazySchema(() =>
  resourceDocument(
    z
      .object({
        ...ec2NodeClassSpecV1Shape(),
        multusInterfaces: z
          .array(multusInterface())
          .max(MAX_MULTUS_INTERFACES, `at most ${MAX_MULTUS_INTERFACES} Multus interfaces are allowed`)
          .optional(),
        multusReadyTaint: taintOrString.optional(),
      })
      .superRefine((spec, ctx) => {
        const seen = new Map<string, number>();
        (spec.multusInterfaces ?? []).forEach((m, i) => {
          const key = `${m.networkCardIndex ?? 0}/${m.deviceIndex}`;
          const first = seen.get(key);
          if (first !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: ['multusInterfaces', i, 'deviceIndex'],
              message: `deviceIndex ${m.deviceIndex} on network card ${m.networkCardIndex ?? 0} is already used by multusInterfaces[${first}]`,
            });
          } else seen.set(key, i);
        });
      })
      .meta(
        celRules({
          rule: '!has(self.multusInterfaces) || self.multusInterfaces.all(a, self.multusInterfaces.exists_one(b, b.deviceIndex == a.deviceIndex && (has(b.networkCardIndex) ? b.networkCardIndex : 0) == (has(a.networkCardIndex) ? a.networkCardIndex : 0)))',
          message: 'each Multus interface needs its own deviceIndex on its network card',
        }),
      ),
  ),
);

export type NodeClassJoinerV1 = z.infer<ReturnType<typeof nodeClassJoinerV1>>;
