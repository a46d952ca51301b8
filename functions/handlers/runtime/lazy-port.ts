import { cachedUntilFailure } from '../../shared/cached-until-failure.js';

/**
 * A port (an interface of async methods: cloud, store, events, timers) whose implementation is
 * built on the first call of one of its methods. The builder usually `import()`s its adapter, so
 * the adapter and its AWS SDK client are a separate chunk of the Lambda bundle: a function loads
 * it when it first calls the port, and never when it does not use the port at all.
 *
 * Every property of the port is a method returning a promise that waits for the implementation,
 * then calls it. An optional method the implementation lacks (e.g. `CloudProvider.prepare`)
 * resolves to undefined. A failed build is not kept: the next call builds again.
 */
export function lazyPort<T extends object>(build: () => Promise<T>): T {
  const implementation = cachedUntilFailure(build);
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy({} as T, {
    get(_target, name) {
      // Not a thenable (awaiting the port gives the port), and no symbol-keyed members.
      if (typeof name !== 'string' || name === 'then') return undefined;
      let method = methods.get(name);
      if (!method) {
        method = async (...args: unknown[]) => {
          const port = (await implementation()) as Record<string, unknown>;
          const real = port[name];
          if (real === undefined) return undefined;
          if (typeof real !== 'function') throw new TypeError(`port member ${name} is not a method`);
          return real.apply(port, args);
        };
        methods.set(name, method);
      }
      return method;
    },
  });
}
