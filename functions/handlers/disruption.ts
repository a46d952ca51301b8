// Placeholder entry point of the disruption Lambda; the provisioning work replaces it.
export const handler = async (_event: unknown): Promise<void> => {
  throw new Error('the disruption handler is not built yet');
};
