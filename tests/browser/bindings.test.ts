/**
 * The framework bindings (`./react`, `./vue`, `./svelte`, `./solid`) rendered by their real
 * framework in headless Chromium: each page (tests/browser/bindings/, bundled by esbuild with the
 * framework's browser build) shows `useMe`, `useActiveOrganization`, `useOrganizations`, a
 * `useQuery` and a `useMutation` (or the framework's equivalent), against the auth module (PGlite)
 * and docs/modules.md's notes module served on the page's origin. Two tabs of one browser context
 * share the cookie: a sign-out and an organization switch in one reach the other.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { auth, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { bundleForBrowser, stopBundler } from "../../scripts/browser_bundle.ts";
import { launchChromium, NO_BROWSER } from "../helpers/browser.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { notes } from "../fixtures/notes_module.ts";

const FRAMEWORKS = ["react", "vue", "svelte", "solid"] as const;
const WAIT = { timeout: 30_000 };
const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

let db: SqlAdapter;
let server: LocalServer;
let browser: Browser;
const bundles = new Map<string, string>();
let users = 0;

before(async () => {
  if (NO_BROWSER) return;
  db = pgliteAdapter();
  await migrate(db, authSchema);
  const authModule = auth({
    database: db,
    passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
  });
  const notesModule = notes({ config: { maxLength: 40 } });
  for (const framework of FRAMEWORKS) {
    const entry = fileURLToPath(new URL(`./bindings/${framework}_app.ts`, import.meta.url));
    bundles.set(`/${framework}.js`, await bundleForBrowser({ entry }));
  }
  await stopBundler();
  server = await listenLocal((request) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(authModule.mountRoute)) return authModule.fetch(request);
    if (pathname.startsWith(notesModule.mountRoute)) return notesModule.fetch(request);
    const script = bundles.get(pathname);
    if (script) return new Response(script, { headers: { "content-type": "text/javascript" } });
    const framework = pathname.slice(1);
    return new Response(
      `<!doctype html><title>${framework}</title><div id="app"></div>` +
        `<script type="module" src="/${framework}.js"></script>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  browser = await launchChromium();
});
after(async () => {
  if (NO_BROWSER) return;
  await browser.close();
  await server.close();
  await db.close();
});

/** Waits until the element `selector` shows exactly `text`. */
async function waitText(page: Page, selector: string, text: string): Promise<void> {
  const deadline = Date.now() + WAIT.timeout;
  let last = await page.locator(selector).textContent();
  while (last !== text) {
    assert.ok(Date.now() < deadline, `${selector}: "${last}", expected "${text}"`);
    await page.waitForTimeout(50);
    last = await page.locator(selector).textContent();
  }
}

/** Calls the page's auth store client (`globalThis.auth.client`): `path` like `organizations.create`. */
function call(page: Page, path: string, ...args: unknown[]): Promise<unknown> {
  return page.evaluate(
    async ([path, args]) => {
      // deno-lint-ignore no-explicit-any
      let target: any = (globalThis as any).auth.client;
      const names = (path as string).split(".");
      const method = names.pop()!;
      for (const name of names) target = target[name];
      return await target[method](...(args as unknown[]));
    },
    [path, args] as const,
  );
}

describe("framework bindings in Chromium", () => {
  for (const framework of FRAMEWORKS) {
    it(
      `${framework}: me, organizations, active organization, a query and a mutation; two tabs`,
      slow,
      async () => {
        const errors: string[] = [];
        const context = await browser.newContext();
        const first = await context.newPage();
        first.on("pageerror", (error) => errors.push(error.message));
        await first.goto(`${server.url}/${framework}`);
        await waitText(first, "#email", "signed out");
        const email = `${framework}-${++users}@example.com`;
        const signedUp = await call(first, "signUp", { email, password: PASSWORD }) as {
          error: unknown;
        };
        assert.equal(signedUp.error, null);
        await waitText(first, "#email", email);
        await waitText(first, "#active", "none");

        const second = await context.newPage();
        second.on("pageerror", (error) => errors.push(error.message));
        await second.goto(`${server.url}/${framework}`);
        await waitText(second, "#email", email);

        const created = [];
        for (const name of ["Acme", "Globex"]) {
          const { data } = await call(first, "organizations.create", {
            name,
            slug: `${name.toLowerCase()}-${framework}`,
          }) as { data: { organization: { id: string } } };
          created.push(data.organization.id);
        }
        assert.deepEqual(await first.locator("#orgs > li").allTextContents(), ["Acme", "Globex"]);
        await call(first, "organizations.setActive", created[1]);
        await waitText(first, "#active", "Globex");
        await waitText(second, "#active", "Globex");
        await call(second, "organizations.setActive", created[0]);
        await waitText(first, "#active", "Acme");
        await waitText(second, "#active", "Acme");
        assert.deepEqual(await second.locator("#orgs > li").allTextContents(), ["Acme", "Globex"]);

        // The mutation, then the query of what it created.
        await waitText(first, "#adding", "idle");
        await first.evaluate(() =>
          (globalThis as unknown as { addNote(t: string): Promise<void> })
            .addNote("Buy milk")
        );
        await waitText(first, "#note", "Buy milk");
        await waitText(first, "#adding", "idle");

        await call(second, "signOut");
        await waitText(second, "#email", "signed out");
        await waitText(first, "#email", "signed out");
        await waitText(first, "#active", "none");
        assert.deepEqual(await first.locator("#orgs > li").allTextContents(), []);
        assert.deepEqual(errors, []);
        await context.close();
      },
    );
  }
});
