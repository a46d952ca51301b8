/**
 * The simulated Pricing API (the AWS Price List Query API): the JSON 1.1 protocol
 * `@aws-sdk/client-pricing` speaks (POST, `X-Amz-Target: AWSPriceListService.<Action>`), errors
 * as `{ "__type", "Message" }`. `GetProducts` pages through the region's EC2 products
 * (`PriceList` entries are JSON strings) with TERM_MATCH filters. Like the real API it answers
 * only clients signed for one of its regions (us-east-1, eu-central-1, ap-south-1), so a client
 * built for the wrong Pricing region fails here as it would in AWS. Faults: service `pricing`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { InstanceType } from '../../core/model/instance-type.js';
import { parseAwsJsonBody, readAwsJsonBody, sendAwsJson } from '../aws-json-protocol.js';
import type { FaultInjector } from '../faults.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, gateCall } from '../iam/authorization/service-gate.js';
import { listenOnLoopback } from '../loopback-server.js';
import { priceListEntry, priceListProducts } from './price-list.js';

/** Regions that host the Price List Query API. */
export const PRICING_REGIONS = ['us-east-1', 'eu-central-1', 'ap-south-1'] as const;

/** Options of {@link startPricingServer}. */
export interface PricingServerOptions {
  /** The simulated region whose EC2 prices are listed. */
  readonly region: string;
  /** The region's instance types as they are now (market changes included). */
  readonly instanceTypes: () => Iterable<InstanceType>;
  readonly faults?: FaultInjector;
  /** Price List publication date (ISO). */
  readonly publicationDate?: string;
  /** The account's IAM: `pricing:GetProducts` (no resource-level permissions, `*`) is authorized. */
  readonly iam?: ServiceAuthorizer;
}

/** A running Pricing endpoint. */
export interface PricingServer {
  readonly url: string;
  close(): Promise<void>;
}

class PricingError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const pricingError = (code: string, message: string, status?: number) =>
  new PricingError(code, message, status);

const MAX_BODY_BYTES = 256 * 1024;
const MAX_RESULTS = 100;

/** Starts the endpoint on 127.0.0.1 and a free port. */
export async function startPricingServer(options: PricingServerOptions): Promise<PricingServer> {
  const server = createServer((req, res) => {
    void handle(options, req, res);
  });
  return listenOnLoopback(server);
}

async function handle(
  options: PricingServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const [prefix, action] = target.split('.');
    const raw = await readAwsJsonBody(req, MAX_BODY_BYTES, pricingError);
    if (req.method !== 'POST' || prefix !== 'AWSPriceListService' || action !== 'GetProducts') {
      throw new PricingError('UnknownOperationException', `unsupported operation '${target || req.method}'`);
    }
    checkSigningRegion(String(req.headers.authorization ?? ''));
    const denial = gateCall(options.iam, accessKeyOf(req.headers), 'json', () => [
      { action: `pricing:${action}`, resource: '*', context: {} },
    ]);
    if (denial) throw new PricingError(denial.code, denial.message, denial.status);
    const fault = options.faults?.check('pricing', action);
    if (fault?.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    if (fault?.error)
      throw new PricingError(
        fault.error,
        fault.message ?? `injected fault: ${fault.error}`,
        fault.httpStatus ?? 400,
      );
    sendAwsJson(res, 200, getProducts(options, parseAwsJsonBody(raw, pricingError)));
  } catch (error) {
    const e =
      error instanceof PricingError ? error : new PricingError('InternalErrorException', String(error), 500);
    sendAwsJson(res, e.status, { __type: e.code, Message: e.message });
  }
}

/** The credential scope's region must host the API (`Credential=AKID/date/<region>/pricing/aws4_request`). */
function checkSigningRegion(authorization: string): void {
  const match = /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\//.exec(authorization);
  if (!match)
    throw new PricingError('MissingAuthenticationTokenException', 'Missing Authentication Token', 403);
  const [, region, service] = match;
  if (service !== 'pricing' || !(PRICING_REGIONS as readonly string[]).includes(region)) {
    throw new PricingError(
      'UnrecognizedClientException',
      `The Pricing API is not available in ${region}; use one of ${PRICING_REGIONS.join(', ')}`,
      400,
    );
  }
}

function getProducts(options: PricingServerOptions, body: Record<string, unknown>) {
  if (body.ServiceCode !== 'AmazonEC2') {
    throw new PricingError('NotFoundException', `Service ${String(body.ServiceCode)} is not found`);
  }
  const format = body.FormatVersion ?? 'aws_v1';
  if (format !== 'aws_v1')
    throw new PricingError('InvalidParameterException', `FormatVersion ${String(format)} is not supported`);
  const maxResults = body.MaxResults ?? MAX_RESULTS;
  if (typeof maxResults !== 'number' || maxResults < 1 || maxResults > MAX_RESULTS) {
    throw new PricingError('InvalidParameterException', `MaxResults must be between 1 and ${MAX_RESULTS}`);
  }
  const filters = parseFilters(body.Filters);
  const products = priceListProducts(options.region, options.instanceTypes()).filter((p) =>
    filters.every((f) => p.attributes[f.field] === f.value),
  );
  const start = decodeToken(body.NextToken);
  const end = start + maxResults;
  const date = options.publicationDate ?? '2026-11-01T00:00:00Z';
  return {
    FormatVersion: 'aws_v1',
    PriceList: products.slice(start, end).map((p) => priceListEntry(p, date)),
    ...(end < products.length ? { NextToken: Buffer.from(`products:${end}`).toString('base64') } : {}),
  };
}

function parseFilters(value: unknown): { field: string; value: string }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new PricingError('InvalidParameterException', 'Filters must be a list');
  return value.map((f, i) => {
    const filter = f as Record<string, unknown>;
    if (
      filter.Type !== 'TERM_MATCH' ||
      typeof filter.Field !== 'string' ||
      typeof filter.Value !== 'string'
    ) {
      throw new PricingError(
        'InvalidParameterException',
        `Filters[${i}] needs Type TERM_MATCH, a Field and a Value`,
      );
    }
    return { field: filter.Field, value: filter.Value };
  });
}

function decodeToken(token: unknown): number {
  if (token === undefined || token === null) return 0;
  const text = typeof token === 'string' ? Buffer.from(token, 'base64').toString('utf8') : '';
  const match = /^products:(\d+)$/.exec(text);
  if (!match) throw new PricingError('InvalidNextTokenException', 'The NextToken is invalid');
  return Number(match[1]);
}
