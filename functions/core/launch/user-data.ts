import type { BootstrapInput } from './bootstrap.js';
import { al2UserData } from './user-data-al2.js';
import { al2023UserData } from './user-data-al2023.js';
import { bottlerocketUserData } from './user-data-bottlerocket.js';

/**
 * The user data (decoded, not base64) that joins a node: AL2023 nodeadm MIME, Bottlerocket TOML
 * or AL2 bootstrap.sh. `Custom` passes the NodeClass's user data through untouched.
 */
export function renderUserData(input: BootstrapInput): string {
  switch (input.family) {
    case 'AL2023':
      return al2023UserData(input);
    case 'Bottlerocket':
      return bottlerocketUserData(input);
    case 'AL2':
      return al2UserData(input);
    case 'Custom':
      if (!input.customUserData)
        throw new Error('amiFamily Custom: the NodeClass must set userData to join the node');
      return input.customUserData;
  }
}
