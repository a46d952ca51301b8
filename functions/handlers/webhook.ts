// Placeholder entry point of the webhook Lambda; the provisioning work replaces it.
export const handler = async (_event: unknown): Promise<void> => {
  throw new Error('the webhook handler is not built yet');
};
