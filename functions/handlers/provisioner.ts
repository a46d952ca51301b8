// Placeholder entry point of the provisioner Lambda; the provisioning work replaces it.
export const handler = async (_event: unknown): Promise<void> => {
  throw new Error('the provisioner handler is not built yet');
};
