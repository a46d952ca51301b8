import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { parseScenario } from '../../../../functions/simulator/scenario/load-scenario.js';
import { runScenario } from '../../../../functions/simulator/scenario/run-scenario.js';

describe('a scenario region', () => {
  it('must be the region of a catalog given with it, and the error says what to do', async () => {
    const scenario = await parseScenario(
      'name: t\nregion: eu-west-1\nsteps:\n  - wait: 1s\n',
      'scenarios/t.yaml',
    );
    await expect(runScenario(scenario, { catalog: bundledCatalog })).rejects.toThrow(
      'scenarios/t.yaml: region eu-west-1 but the instance catalog is of us-west-2; give a catalog of eu-west-1 or drop one of them',
    );
  });
});
