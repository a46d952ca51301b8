/**
 * One chaos run in a child process of side-by-side.ts: the run's options as JSON in the first
 * argument (its speed as text), its report sent back over IPC.
 */
import { appendFileSync } from 'node:fs';
import { runChaos } from './run-chaos.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as {
  seed: number;
  replicas: number;
  speed?: string;
  logFile?: string;
};
const prefix = `seed ${spec.seed} x ${spec.replicas}: `;
const onLog = spec.logFile
  ? (line: string) => appendFileSync(spec.logFile as string, `${prefix}${line}\n`)
  : undefined;
const report = await runChaos({
  seed: spec.seed,
  replicas: spec.replicas,
  onLog,
  ...(spec.speed !== undefined ? { speed: Number(spec.speed) } : {}),
});
process.send?.(report, () => process.exit(0));
