/**
 * Reactive state for browsers, framework-agnostic, on [nanostores](https://github.com/nanostores/nanostores)
 * atoms (`subscribe`, `get`): the signed-in state of the auth module ({@link createAuthStore}:
 * `me`, `user`, `organizations`, `activeOrganization`, `invitations`, kept in step across tabs)
 * and cached queries and mutations of any module ({@link createQueryStore}). The React, Vue,
 * Svelte and Solid bindings (`@app/fragment-cli/react`, …) read these atoms.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { createAuthStore } from "@app/fragment-cli/client/store";
 *
 * const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * auth.user.subscribe((user) => console.log(user ? user.email : "signed out"));
 * ```
 *
 * @module
 */

export {
  type AuthMeState,
  type AuthStore,
  type AuthStoreOptions,
  createAuthStore,
} from "./auth_store.ts";
export {
  type CallInput,
  type CallState,
  createQueryStore,
  type MutationOptions,
  type MutationStore,
  type QueryKey,
  type QueryStore,
  queryStoreOf,
  type StateOf,
  type StoreAtom,
} from "./query_store.ts";
