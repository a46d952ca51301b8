/**
 * Imported first by the benchmarks that run AWS SDK clients: the SDK's notice about future Node
 * versions is noise in a benchmark's output (the CLI and the tests turn it off the same way).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
