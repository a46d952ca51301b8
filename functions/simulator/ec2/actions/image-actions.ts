/** DescribeImages over the simulated region's AMIs. */
import { Ec2Error } from '../ec2-error.js';
import { checkFilterNames, matchesFilters, parseFilters, tagSet } from '../filters.js';
import type { Ec2Action } from './action.js';

const IMAGE_FILTERS = [
  'image-id',
  'name',
  'owner-id',
  'owner-alias',
  'architecture',
  'state',
  'image-type',
  'is-public',
];

export const describeImages: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, IMAGE_FILTERS, 'DescribeImages');
  const ids = params.strings('ImageId');
  const owners = params.strings('Owner');
  const includeDeprecated = params.bool('IncludeDeprecated') ?? false;
  const now = ctx.clock.now();
  for (const id of ids) {
    if (!ctx.state.images.has(id))
      throw new Ec2Error('InvalidAMIID.NotFound', `The image id '[${id}]' does not exist`);
  }
  const accountId = ctx.state.topology.accountId;
  const images = [...ctx.state.images.values()].filter((image) => {
    const deprecated = image.deprecationTime !== undefined && Date.parse(image.deprecationTime) <= now;
    if (deprecated && !includeDeprecated && ids.length === 0) return false;
    if (ids.length > 0 && !ids.includes(image.imageId)) return false;
    const ownedBy = (owner: string) =>
      owner === image.ownerId ||
      owner === image.ownerAlias ||
      (owner === 'self' && image.ownerId === accountId);
    if (owners.length > 0 && !owners.some(ownedBy)) return false;
    return matchesFilters(
      filters,
      {
        'image-id': [image.imageId],
        name: [image.name],
        'owner-id': [image.ownerId],
        'owner-alias': [image.ownerAlias],
        architecture: [image.architecture],
        state: ['available'],
        'image-type': ['machine'],
        'is-public': [image.ownerId !== accountId],
      },
      image.tags,
    );
  });
  return {
    imagesSet: images.map((image) => ({
      imageId: image.imageId,
      imageLocation: `${image.ownerAlias ?? image.ownerId}/${image.name}`,
      imageState: 'available',
      imageOwnerId: image.ownerId,
      imageOwnerAlias: image.ownerAlias,
      creationDate: image.creationDate,
      deprecationTime: image.deprecationTime,
      isPublic: image.ownerId !== accountId,
      architecture: image.architecture,
      imageType: 'machine',
      name: image.name,
      description: image.description,
      rootDeviceType: 'ebs',
      rootDeviceName: '/dev/xvda',
      blockDeviceMapping: [
        { deviceName: '/dev/xvda', ebs: { volumeSize: 20, volumeType: 'gp3', deleteOnTermination: true } },
      ],
      virtualizationType: 'hvm',
      hypervisor: 'xen',
      enaSupport: true,
      platformDetails: 'Linux/UNIX',
      bootMode: image.architecture === 'arm64' ? 'uefi' : 'uefi-preferred',
      tagSet: tagSet(image.tags),
    })),
  };
};
