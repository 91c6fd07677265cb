/**
 * `createAuthStore`: the signed-in state of the auth module as nanostores atoms. `me` holds the
 * `GET /me` answer (user, organizations, invitations, active organization), is loaded when first
 * watched, and is read again after every call of the store's client that may change it; the tabs
 * of one browser tell each other, so a sign-out or an organization switch in one reaches the
 * others.
 *
 * @module
 */

import { atom, computed, onMount } from "nanostores";
import type { AuthClient } from "../auth_client.ts";
import type { AuthClientError } from "../result.ts";
import type {
  AuthInvitationEntry,
  AuthMe,
  AuthMeUser,
  AuthOrganizationEntry,
} from "../../auth/mod.ts";
import type { StoreAtom } from "./query_store.ts";
import { openTabSignal } from "./tabs.ts";

/**
 * What `me` holds: the `GET /me` answer (`null` when signed out, or before the first answer),
 * the error of the last read (`null` when it succeeded or answered "signed out"), and whether a
 * read is under way.
 *
 * @example
 * ```ts
 * import type { AuthMeState } from "@app/fragment-cli/client/store";
 *
 * function headline(state: AuthMeState): string {
 *   if (state.loading && !state.data) return "Loading…";
 *   if (state.error) return `Could not load your account (${state.error.code})`;
 *   return state.data ? `Signed in as ${state.data.user.email}` : "Signed out";
 * }
 * ```
 */
export interface AuthMeState {
  /** The `GET /me` answer; `null` when signed out or not loaded yet. */
  data: AuthMe | null;
  /** Why the last read failed (a `401` is not an error: it means signed out). */
  error: AuthClientError | null;
  /** Whether a read of `/me` is under way (`true` until the first answer). */
  loading: boolean;
}

/**
 * Options of {@link createAuthStore}.
 *
 * @example One channel per deployment served from the same origin
 * ```ts
 * import type { AuthStoreOptions } from "@app/fragment-cli/client/store";
 *
 * const options: AuthStoreOptions = { channel: "acme-admin:auth" };
 * ```
 */
export interface AuthStoreOptions {
  /**
   * The `BroadcastChannel` name the tabs share (default `"fragment-cli:auth"`); `false` keeps
   * the store to this tab.
   */
  channel?: string | false;
}

/**
 * The signed-in state (see {@link createAuthStore}): atoms to watch and the client to call.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { type AuthStore, createAuthStore } from "@app/fragment-cli/client/store";
 *
 * const auth: AuthStore = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * auth.activeOrganization.subscribe((entry) => {
 *   document.title = entry ? entry.organization.name : "No organization";
 * });
 * ```
 */
export interface AuthStore {
  /**
   * The client to call: the one given, each call that may change `/me` (anything but the reads
   * `me`, `session`, `get`, `list` and `get…`/`list…` names, `auditLog`, `providers`) followed by a read of `/me` (and a
   * signal to the other tabs) before it resolves, when it succeeded or answered `401`.
   */
  readonly client: AuthClient;
  /** The `GET /me` state: loaded when first watched. */
  readonly me: StoreAtom<AuthMeState>;
  /** The signed-in user, `null` when signed out. */
  readonly user: StoreAtom<AuthMeUser | null>;
  /** The user's organizations (the first 100: `/me`'s list). */
  readonly organizations: StoreAtom<readonly AuthOrganizationEntry[]>;
  /** The credential's active organization, `null` when none. */
  readonly activeOrganization: StoreAtom<AuthOrganizationEntry | null>;
  /** The user's pending invitations (the first 100). */
  readonly invitations: StoreAtom<readonly AuthInvitationEntry[]>;
  /** Reads `/me` again; resolves once `me` holds the answer. */
  refresh(): Promise<void>;
  /** Stops listening to the other tabs. */
  close(): void;
}

/** The calls that only read: no `/me` after them. */
const READS: ReadonlySet<string> = new Set([
  "me",
  "session",
  "get",
  "getActive",
  "list",
  "listMine",
  "auditLog",
  "providers",
]);

/**
 * Creates the signed-in state of an auth client: `me` and the atoms derived from it, and a
 * client whose changing calls refresh them (in this tab, and through a `BroadcastChannel` in the
 * others of the same browser).
 *
 * @param client A client from `createAuthClient`.
 * @param options The channel shared by the tabs; see {@link AuthStoreOptions}.
 * @returns The store.
 *
 * @example Sign in, then read the organizations
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { createAuthStore } from "@app/fragment-cli/client/store";
 *
 * const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * const { error } = await auth.client.signIn({ email: "ada@example.com", password: "…" });
 * if (!error) console.log(auth.organizations.get().map((entry) => entry.organization.name));
 * ```
 */
export function createAuthStore(client: AuthClient, options: AuthStoreOptions = {}): AuthStore {
  // Loading until the first answer: a page shows neither "signed out" nor "signed in" before it.
  const me = atom<AuthMeState>({ data: null, error: null, loading: true });
  let reads = 0;
  let loaded = false;
  const refresh = async (): Promise<void> => {
    const read = ++reads;
    if (!me.get().loading) me.set({ ...me.get(), loading: true });
    const { data, error } = await client.me();
    // A later read started meanwhile: its answer is the one to keep.
    if (read !== reads) return;
    loaded = true;
    me.set(
      error?.status === 401
        ? { data: null, error: null, loading: false }
        : { data: data ?? me.get().data, error, loading: false },
    );
  };
  const tabs = openTabSignal(options.channel ?? "fragment-cli:auth", () => void refresh());
  onMount(me, () => {
    if (!loaded && reads === 0) void refresh();
  });
  const changed = async (result: unknown): Promise<void> => {
    const error = (result as { error?: AuthClientError | null } | null)?.error;
    if (error && error.status !== 401) return;
    await refresh();
    tabs.post();
  };
  const data = (state: AuthMeState) => state.data;
  return {
    client: withRefresh(client, changed),
    me,
    user: computed(me, (state) => data(state)?.user ?? null),
    organizations: computed(me, (state) => data(state)?.organizations ?? []),
    activeOrganization: computed(me, (state) => data(state)?.activeOrganization ?? null),
    invitations: computed(me, (state) => data(state)?.invitations ?? []),
    refresh,
    close: () => tabs.close(),
  };
}

/**
 * A copy of `target` (and of its namespaces, `organizations`, `members`, …) whose calls that are
 * not {@link READS} wait for `changed(result)` before resolving. Generic over the shape, so
 * namespaces added to the client later are covered without a change here.
 */
function withRefresh<T extends object>(target: T, changed: (result: unknown) => Promise<void>): T {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value === "function") {
      copy[name] = READS.has(name) || /^(get|list)[A-Z]/.test(name) ? value : (
        ...args: unknown[]
      ) => {
        const out = value.apply(target, args);
        return out instanceof Promise
          ? out.then(async (result) => (await changed(result), result))
          : out;
      };
    } else if (value && typeof value === "object") {
      copy[name] = withRefresh(value, changed);
    } else {
      copy[name] = value;
    }
  }
  return copy as T;
}
