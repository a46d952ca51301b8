// Placeholder entry point of the interruption Lambda; the provisioning work replaces it.
export const handler = async (_event: unknown): Promise<void> => {
  throw new Error('the interruption handler is not built yet');
};
