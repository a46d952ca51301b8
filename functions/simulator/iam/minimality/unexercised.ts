/**
 * Statements of the stack no simulated call can exercise, with the reason: the calls are made by
 * AWS itself with the function's role, not by joiner's code, and the simulator does not model
 * them. Anything else that no shipped scenario needs is a finding of the minimality check.
 */
import type { PolicyMutation } from './policy-mutations.js';

/** Action patterns only AWS's own machinery uses, and why the simulator cannot exercise them. */
const NOT_SIMULATED: readonly { readonly actions: RegExp; readonly reason: string }[] = [
  {
    actions: /^logs:(CreateLogStream|PutLogEvents)$/,
    reason:
      'the Lambda service writes a function’s logs with its role; the simulated runner keeps them in process',
  },
];

/** Why no scenario can notice this edit, or undefined when one must. */
export function unexercisedReason(mutation: PolicyMutation): string | undefined {
  const rule = NOT_SIMULATED.find((r) => mutation.actions.every((a) => r.actions.test(a)));
  return rule?.reason;
}
