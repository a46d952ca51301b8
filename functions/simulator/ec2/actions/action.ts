import type { Ec2Context } from '../context.js';
import type { QueryParams } from '../query.js';
import type { XmlObject } from '../xml-response.js';

/** One EC2 API action: request parameters in, the response body's elements out. */
export type Ec2Action = (ctx: Ec2Context, params: QueryParams) => XmlObject;
