import {
  type CapacityReservation,
  CreateFleetCommand,
  type CreateFleetCommandInput,
  type CreateFleetCommandOutput,
  CreateLaunchTemplateCommand,
  type CreateLaunchTemplateCommandInput,
  CreateTagsCommand,
  DescribeCapacityReservationsCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  type EC2Client,
  type Filter,
  type Image,
  type Instance,
  type LaunchTemplate,
  ModifyNetworkInterfaceAttributeCommand,
  type SecurityGroup,
  type Subnet,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';

/** The EC2 calls joiner makes, and nothing else (pagination handled inside). */
export interface Ec2Api {
  describeSubnets(filters: Filter[], subnetIds?: string[]): Promise<Subnet[]>;
  describeSecurityGroups(filters: Filter[], groupIds?: string[]): Promise<SecurityGroup[]>;
  describeImages(filters: Filter[], options?: { imageIds?: string[]; owners?: string[] }): Promise<Image[]>;
  /** Launch templates by name; a missing name is simply absent from the result. */
  describeLaunchTemplates(names: string[]): Promise<LaunchTemplate[]>;
  createLaunchTemplate(input: CreateLaunchTemplateCommandInput): Promise<LaunchTemplate | undefined>;
  createFleet(input: CreateFleetCommandInput): Promise<CreateFleetCommandOutput>;
  describeInstances(filters: Filter[], instanceIds?: string[]): Promise<Instance[]>;
  /** Capacity reservations by id (an unknown id rejects with EC2's NotFound error) or filters, all pages. */
  describeCapacityReservations(filters: Filter[], ids?: string[]): Promise<CapacityReservation[]>;
  terminateInstances(instanceIds: string[]): Promise<void>;
  createTags(resourceIds: string[], tags: Record<string, string>): Promise<void>;
  disableSourceDestCheck(networkInterfaceId: string): Promise<void>;
}

/** The {@link Ec2Api} over `@aws-sdk/client-ec2`. */
export function createEc2Api(client: EC2Client): Ec2Api {
  const pages = async <T>(
    fetch: (token?: string) => Promise<{ items: T[]; next?: string }>,
  ): Promise<T[]> => {
    const all: T[] = [];
    let token: string | undefined;
    do {
      const page = await fetch(token);
      all.push(...page.items);
      token = page.next;
    } while (token);
    return all;
  };
  const orUndefined = <T>(items: T[] | undefined) => (items && items.length > 0 ? items : undefined);
  return {
    describeSubnets: (filters, subnetIds) =>
      pages(async (NextToken) => {
        const out = await client.send(
          new DescribeSubnetsCommand({ Filters: orUndefined(filters), SubnetIds: subnetIds, NextToken }),
        );
        return { items: out.Subnets ?? [], next: out.NextToken };
      }),
    describeSecurityGroups: (filters, groupIds) =>
      pages(async (NextToken) => {
        const out = await client.send(
          new DescribeSecurityGroupsCommand({ Filters: orUndefined(filters), GroupIds: groupIds, NextToken }),
        );
        return { items: out.SecurityGroups ?? [], next: out.NextToken };
      }),
    describeImages: async (filters, options = {}) => {
      const out = await client.send(
        new DescribeImagesCommand({
          Filters: orUndefined(filters),
          ImageIds: options.imageIds,
          Owners: options.owners,
        }),
      );
      return out.Images ?? [];
    },
    describeLaunchTemplates: async (names) => {
      if (names.length === 0) return [];
      const out = await client.send(
        new DescribeLaunchTemplatesCommand({ Filters: [{ Name: 'launch-template-name', Values: names }] }),
      );
      return out.LaunchTemplates ?? [];
    },
    createLaunchTemplate: async (input) =>
      (await client.send(new CreateLaunchTemplateCommand(input))).LaunchTemplate,
    createFleet: (input) => client.send(new CreateFleetCommand(input)),
    describeInstances: (filters, instanceIds) =>
      pages(async (NextToken) => {
        const out = await client.send(
          new DescribeInstancesCommand({
            Filters: orUndefined(filters),
            InstanceIds: instanceIds,
            NextToken,
          }),
        );
        return { items: (out.Reservations ?? []).flatMap((r) => r.Instances ?? []), next: out.NextToken };
      }),
    describeCapacityReservations: (filters, ids) =>
      pages(async (NextToken) => {
        const byId = ids !== undefined && ids.length > 0;
        const out = await client.send(
          new DescribeCapacityReservationsCommand({
            Filters: orUndefined(filters),
            CapacityReservationIds: byId ? ids : undefined,
            // EC2 refuses MaxResults together with ids.
            MaxResults: byId ? undefined : 1000,
            NextToken,
          }),
        );
        return { items: out.CapacityReservations ?? [], next: out.NextToken };
      }),
    terminateInstances: async (instanceIds) => {
      await client.send(new TerminateInstancesCommand({ InstanceIds: instanceIds }));
    },
    createTags: async (resourceIds, tags) => {
      await client.send(
        new CreateTagsCommand({
          Resources: resourceIds,
          Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
        }),
      );
    },
    disableSourceDestCheck: async (networkInterfaceId) => {
      await client.send(
        new ModifyNetworkInterfaceAttributeCommand({
          NetworkInterfaceId: networkInterfaceId,
          SourceDestCheck: { Value: false },
        }),
      );
    },
  };
}
