/**
 * The order vitest hands test files to its workers: the longest first, so the workers finish
 * together instead of one running a long scenario alone at the end.
 *
 * Projects run one after the other (a worker that shares its loaded modules is reused only for
 * the next file of its own project): first the end-to-end and chaos scenarios (the longest
 * files), then the integration tests' simulated clouds, then the CDK tests, then the unit tests,
 * whose many short files fill the workers' last minutes. Within
 * a project, a file an earlier run timed goes by that time, longest first; a file never timed
 * (every file after `npm ci`, which clears vitest's cache) goes first, end-to-end and chaos
 * scenarios before the integration tests, larger files before smaller ones.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Projects in the order they run; a project not listed runs last. */
export const PROJECT_ORDER = ['scenarios', 'clouds', 'cdk', 'shared'];

/** Directories whose files take longest, for files no earlier run timed. */
const SLOW_DIRECTORIES = ['test/e2e/', 'test/chaos/', 'test/integration/'];

const rank = <T>(list: readonly T[], value: T) => {
  const at = list.indexOf(value);
  return at === -1 ? list.length : at;
};

/** Longest first, project by project (see the module's comment). */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const cache = this.ctx.cache;
    const estimate = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      const key = `${spec.project.name}:${path}`;
      return {
        project: rank(PROJECT_ORDER, spec.project.name),
        duration: cache.getFileTestResults(key)?.duration,
        directory: rank(
          SLOW_DIRECTORIES.map((dir) => path.startsWith(dir)),
          true,
        ),
        size: cache.getFileStats(key)?.size ?? 0,
      };
    };
    const estimates = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => {
      const x = estimates.get(a) as ReturnType<typeof estimate>;
      const y = estimates.get(b) as ReturnType<typeof estimate>;
      if (x.project !== y.project) return x.project - y.project;
      if (x.duration === undefined || y.duration === undefined) {
        if (x.duration !== y.duration) return x.duration === undefined ? -1 : 1;
        if (x.directory !== y.directory) return x.directory - y.directory;
        return y.size - x.size;
      }
      return y.duration - x.duration;
    });
  }
}
