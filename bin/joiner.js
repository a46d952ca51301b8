#!/usr/bin/env node
// Runs the TypeScript CLI (bin/joiner.ts) without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./joiner.ts');
