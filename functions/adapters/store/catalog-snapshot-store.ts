/**
 * The live catalog snapshot in joiner's DynamoDB table: one item per part and region
 * (`pk = catalog`, `sk = <region>#types` or `<region>#spot`), the part as gzip-compressed JSON in a
 * binary attribute. A whole region's instance types compress to tens of kilobytes, well inside
 * DynamoDB's 400 KB item limit; a part that would not fit is refused with an error saying so.
 * Writes are conditional on `fetchedAt`, so a slow refresh never overwrites a newer snapshot and a
 * retried one writes nothing new; a part that cannot be read is replaced unconditionally.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type CatalogSnapshot,
  type SpotPart,
  type TypesPart,
  UnreadableSnapshotError,
} from '../../core/catalog/live/catalog-snapshot.js';
import type { SaveOptions } from '../../core/catalog/live/refresh-catalog.js';
import { PK } from './items.js';

/** Largest compressed part stored (DynamoDB items hold at most 400 KB, keys and attributes included). */
export const MAX_PART_BYTES = 390_000;

type PartName = 'types' | 'spot';

/** Reads and writes the snapshot parts of one region. */
export class CatalogSnapshotStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Both parts of `region` (absent ones undefined), in one BatchGetItem. */
  async load(region: string): Promise<CatalogSnapshot> {
    const keys = (['types', 'spot'] as const).map((part) => ({ pk: PK.catalog, sk: sortKey(region, part) }));
    const out = await this.documents.send(
      new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }),
    );
    const items = out.Responses?.[this.tableName] ?? [];
    const unprocessed = out.UnprocessedKeys?.[this.tableName]?.Keys?.length ?? 0;
    if (unprocessed > 0) throw new Error('catalog snapshot: DynamoDB left keys unprocessed (throttled)');
    const part = <T>(name: PartName): T | undefined => {
      const item = items.find((i) => i.sk === sortKey(region, name));
      return item ? decode<T>(item.data, `${region} ${name}`) : undefined;
    };
    return { types: part<TypesPart>('types'), spot: part<SpotPart>('spot') };
  }

  /** Writes the types part unless a newer one is stored (or, `replace`, whatever is); true when written. */
  saveTypes(part: TypesPart, options: SaveOptions = {}): Promise<boolean> {
    return this.save('types', part, options);
  }

  /** Writes the spot part unless a newer one is stored (or, `replace`, whatever is); true when written. */
  saveSpot(part: SpotPart, options: SaveOptions = {}): Promise<boolean> {
    return this.save('spot', part, options);
  }

  private async save(name: PartName, part: TypesPart | SpotPart, options: SaveOptions): Promise<boolean> {
    const data = gzipSync(JSON.stringify(part));
    if (data.byteLength > MAX_PART_BYTES) {
      throw new Error(
        `catalog snapshot: the ${name} part of ${part.region} is ${data.byteLength} bytes compressed, over the ${MAX_PART_BYTES}-byte item limit`,
      );
    }
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: PK.catalog,
            sk: sortKey(part.region, name),
            version: part.version,
            region: part.region,
            fetchedAt: part.fetchedAt,
            bytes: data.byteLength,
            data: new Uint8Array(data),
          },
          ...(options.replace
            ? {}
            : {
                ConditionExpression: 'attribute_not_exists(pk) OR fetchedAt < :fetchedAt',
                ExpressionAttributeValues: { ':fetchedAt': part.fetchedAt },
              }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}

function sortKey(region: string, part: PartName): string {
  return `${region}#${part}`;
}

function decode<T>(data: unknown, what: string): T {
  if (!(data instanceof Uint8Array))
    throw new UnreadableSnapshotError(`catalog snapshot ${what}: data is not binary`);
  try {
    return JSON.parse(gunzipSync(data).toString('utf8')) as T;
  } catch (error) {
    throw new UnreadableSnapshotError(
      `catalog snapshot ${what}: cannot decode (${(error as Error).message})`,
    );
  }
}
