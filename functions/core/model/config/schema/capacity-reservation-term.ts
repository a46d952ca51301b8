import * as z from 'zod';
import { addIssue, stringMap } from './common.js';
import { celRules } from './crd-rules.js';

/**
 * A `capacityReservationSelectorTerms` entry of an EC2NodeClass (Karpenter v1.3+): an `id`
 * (`cr-...`) alone, or `tags` (value `*` for any value) and/or `instanceMatchCriteria`, optionally
 * narrowed to the reservations of one account (`ownerID`). The rules are Karpenter's CRD rules.
 */
export const capacityReservationSelectorTerm = z
  .object({
    tags: stringMap
      .meta({
        maxProperties: 20,
        ...celRules({
          rule: "self.all(k, k != '' && self[k] != '')",
          message: "empty tag keys or values aren't supported",
        }),
      })
      .optional(),
    id: z
      .string()
      .regex(/^cr-[0-9a-z]+$/, 'must be a capacity reservation id (cr- then lowercase letters or digits)')
      .optional(),
    ownerID: z
      .string()
      .regex(/^[0-9]{12}$/, 'must be a 12-digit AWS account id')
      .optional(),
    instanceMatchCriteria: z.enum(['open', 'targeted']).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.tags === undefined && t.id === undefined && t.instanceMatchCriteria === undefined) {
      addIssue(ctx, 'selector term selects nothing', [], 'set tags, id or instanceMatchCriteria');
    }
    if (
      t.id !== undefined &&
      (t.tags !== undefined || t.ownerID !== undefined || t.instanceMatchCriteria !== undefined)
    ) {
      addIssue(
        ctx,
        '"id" is mutually exclusive with "tags", "ownerID" and "instanceMatchCriteria"',
        [],
        'use a separate term per id',
      );
    }
    if (t.tags !== undefined) {
      if (Object.keys(t.tags).length > 20) addIssue(ctx, 'at most 20 tags', ['tags']);
      for (const [key, value] of Object.entries(t.tags)) {
        if (key === '' || value === '') addIssue(ctx, "empty tag keys or values aren't supported", ['tags']);
      }
    }
  })
  .meta(
    celRules(
      {
        rule: 'has(self.tags) || has(self.id) || has(self.instanceMatchCriteria)',
        message: 'selector term selects nothing: set tags, id or instanceMatchCriteria',
      },
      {
        rule: '!has(self.id) || !(has(self.tags) || has(self.ownerID) || has(self.instanceMatchCriteria))',
        message: '"id" is mutually exclusive with "tags", "ownerID" and "instanceMatchCriteria"',
      },
    ),
  );
