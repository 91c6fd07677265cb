// What every binding's page shares: the auth store and the notes client, on the page's origin,
// exposed to the test (`globalThis.auth`, `globalThis.addNote`).
import { createAuthClient, createModuleClient } from "../../../src/client/mod.ts";
import { createAuthStore } from "../../../src/client/store/mod.ts";
import type { notes as notesModule } from "../../fixtures/notes_module.ts";

export const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
export const notes = createModuleClient<typeof notesModule>({ baseUrl: "/api/notes" });
(globalThis as { auth?: unknown }).auth = auth;

/** The page's email line: loading, the user's address, or signed out. */
export function emailLine(state: ReturnType<typeof auth.me.get>): string {
  if (state.loading && !state.data) return "loading";
  return state.data?.user.email ?? "signed out";
}

/** Lets the test add a note through the page's mutation (`globalThis.addNote(text)`). */
export function exposeAddNote(add: (text: string) => Promise<void>): void {
  (globalThis as { addNote?: unknown }).addNote = add;
}
