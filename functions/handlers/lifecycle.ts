// Placeholder entry point of the lifecycle Lambda; the provisioning work replaces it.
export const handler = async (_event: unknown): Promise<void> => {
  throw new Error('the lifecycle handler is not built yet');
};
