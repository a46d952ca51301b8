// Placeholder entry point of the installer Lambda; the provisioning work replaces it.
export const handler = async (_event: unknown): Promise<void> => {
  throw new Error('the installer handler is not built yet');
};
