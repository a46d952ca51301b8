/** CreateLaunchTemplate / DescribeLaunchTemplates / DeleteLaunchTemplate, and template resolution. */
import { requireAuthorized } from '../authorization/ec2-caller.js';
import { createLaunchTemplateChecks, deleteLaunchTemplateChecks } from '../authorization/resource-checks.js';
import { describable, describedTags } from '../consistency/eventual-consistency.js';
import type { Ec2Context } from '../context.js';
import { Ec2Error } from '../ec2-error.js';
import type { LaunchTemplateRecord } from '../ec2-state.js';
import { checkFilterNames, matchesFilters, parseFilters, tagSet, tagsFor } from '../filters.js';
import { newId } from '../ids.js';
import { type LaunchData, parseLaunchData } from '../launch-template-data.js';
import { paginate } from '../pagination.js';
import type { QueryParams } from '../query.js';
import type { XmlObject } from '../xml-response.js';
import type { Ec2Action } from './action.js';

const NAME_PATTERN = /^[a-zA-Z0-9().\-/_]{3,128}$/;

function templateXml(ctx: Ec2Context, template: LaunchTemplateRecord): XmlObject {
  return {
    launchTemplateId: template.launchTemplateId,
    launchTemplateName: template.launchTemplateName,
    createTime: new Date(template.createTime).toISOString(),
    createdBy: `arn:aws:iam::${ctx.state.topology.accountId}:role/joiner`,
    defaultVersionNumber: template.defaultVersion,
    latestVersionNumber: template.latestVersion,
    tagSet: tagSet(describedTags(ctx.consistency, template.launchTemplateId, template.tags)),
  };
}

export const createLaunchTemplate: Ec2Action = (ctx, params) => {
  const name = params.required('LaunchTemplateName');
  const clientToken = params.str('ClientToken');
  const replayed = clientToken ? ctx.state.launchTemplateTokens.get(clientToken) : undefined;
  const previous = replayed ? ctx.state.launchTemplates.get(replayed.launchTemplateId) : undefined;
  if (replayed && previous) {
    if (replayed.fingerprint !== params.fingerprint(['ClientToken'])) {
      throw new Ec2Error(
        'IdempotentParameterMismatch',
        `ClientToken '${clientToken}' was already used with different parameters`,
      );
    }
    return { launchTemplate: templateXml(ctx, previous) };
  }
  if (!NAME_PATTERN.test(name)) {
    throw new Ec2Error(
      'InvalidLaunchTemplateName.MalformedException',
      `Launch template name '${name}' must be 3 to 128 characters of letters, digits and ( ) . - / _`,
    );
  }
  if (ctx.state.launchTemplateByName(name)) {
    throw new Ec2Error(
      'InvalidLaunchTemplateName.AlreadyExistsException',
      `Launch template name already in use: '${name}'.`,
    );
  }
  const dataParams = params.child('LaunchTemplateData');
  if (!dataParams)
    throw new Ec2Error('MissingParameter', 'The request must contain the parameter LaunchTemplateData');
  const data = parseLaunchData(dataParams);
  checkLaunchData(data);
  const tags = tagsFor(params, 'launch-template');
  requireAuthorized(ctx, createLaunchTemplateChecks(ctx, tags));
  const template: LaunchTemplateRecord = {
    launchTemplateId: newId(ctx.random, 'lt'),
    launchTemplateName: name,
    createTime: ctx.clock.now(),
    tags,
    versions: new Map([[1, data]]),
    defaultVersion: 1,
    latestVersion: 1,
  };
  ctx.state.launchTemplates.set(template.launchTemplateId, template);
  ctx.consistency?.created(template.launchTemplateId);
  if (clientToken) {
    const fingerprint = params.fingerprint(['ClientToken']);
    ctx.state.launchTemplateTokens.set(clientToken, {
      launchTemplateId: template.launchTemplateId,
      fingerprint,
    });
  }
  return { launchTemplate: templateXml(ctx, template) };
};

function checkLaunchData(data: LaunchData): void {
  if (data.userData !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(data.userData.replace(/\s/g, ''))) {
    throw new Ec2Error('InvalidUserData.Malformed', 'LaunchTemplateData.UserData must be base64-encoded');
  }
  for (const ni of data.networkInterfaces) {
    if (ni.deviceIndex < 0)
      throw new Ec2Error(
        'InvalidParameterValue',
        `NetworkInterface DeviceIndex ${ni.deviceIndex} is invalid`,
      );
  }
}

export const describeLaunchTemplates: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, ['launch-template-name', 'create-time'], 'DescribeLaunchTemplates');
  const ids = params.strings('LaunchTemplateId');
  const names = params.strings('LaunchTemplateName');
  const seen = (t: LaunchTemplateRecord | undefined) =>
    !!t && describable(ctx.consistency, t.launchTemplateId);
  for (const id of ids) {
    if (!seen(ctx.state.launchTemplates.get(id))) {
      throw new Ec2Error(
        'InvalidLaunchTemplateId.NotFound',
        `The specified launch template, with template ID ${id}, does not exist.`,
      );
    }
  }
  for (const name of names) {
    if (!seen(ctx.state.launchTemplateByName(name))) {
      throw new Ec2Error(
        'InvalidLaunchTemplateName.NotFoundException',
        `At least one of the launch templates specified in the request does not exist: '${name}'.`,
      );
    }
  }
  const templates = [...ctx.state.launchTemplates.values()].filter(
    (t) =>
      (ids.length === 0 || ids.includes(t.launchTemplateId)) &&
      (names.length === 0 || names.includes(t.launchTemplateName)) &&
      seen(t) &&
      matchesFilters(
        filters,
        {
          'launch-template-name': [t.launchTemplateName],
          'create-time': [new Date(t.createTime).toISOString()],
        },
        describedTags(ctx.consistency, t.launchTemplateId, t.tags),
      ),
  );
  const page = paginate(templates, params, 'DescribeLaunchTemplates', { min: 1, max: 200 });
  return { launchTemplates: page.items.map((t) => templateXml(ctx, t)), nextToken: page.nextToken };
};

export const deleteLaunchTemplate: Ec2Action = (ctx, params) => {
  const template = findTemplate(ctx, params.str('LaunchTemplateId'), params.str('LaunchTemplateName'));
  requireAuthorized(ctx, deleteLaunchTemplateChecks(ctx, template));
  ctx.state.launchTemplates.delete(template.launchTemplateId);
  return { launchTemplate: templateXml(ctx, template) };
};

/** Finds a template by id or name, with the error EC2 gives when it does not exist. */
export function findTemplate(
  ctx: Ec2Context,
  id: string | undefined,
  name: string | undefined,
): LaunchTemplateRecord {
  if (id) {
    const template = ctx.state.launchTemplates.get(id);
    if (!template) {
      throw new Ec2Error(
        'InvalidLaunchTemplateId.NotFound',
        `The specified launch template, with template ID ${id}, does not exist.`,
      );
    }
    return template;
  }
  if (name) {
    const template = ctx.state.launchTemplateByName(name);
    if (!template) {
      throw new Ec2Error(
        'InvalidLaunchTemplateName.NotFoundException',
        `The specified launch template, with template name ${name}, does not exist.`,
      );
    }
    return template;
  }
  throw new Ec2Error('MissingParameter', 'Either LaunchTemplateId or LaunchTemplateName must be given');
}

/** A launch template specification (`LaunchTemplateId` / `LaunchTemplateName` / `Version`) resolved to its data. */
export interface ResolvedTemplate {
  readonly template: LaunchTemplateRecord;
  readonly version: number;
  readonly data: LaunchData;
}

export function resolveTemplate(ctx: Ec2Context, spec: QueryParams): ResolvedTemplate {
  const template = findTemplate(ctx, spec.str('LaunchTemplateId'), spec.str('LaunchTemplateName'));
  const requested = spec.str('Version') ?? '$Default';
  const version =
    requested === '$Latest'
      ? template.latestVersion
      : requested === '$Default'
        ? template.defaultVersion
        : Number(requested);
  const data = template.versions.get(version);
  if (!data) {
    throw new Ec2Error(
      'InvalidLaunchTemplateId.VersionNotFound',
      `Could not find launch template version ${requested} of ${template.launchTemplateId}`,
    );
  }
  return { template, version, data };
}
