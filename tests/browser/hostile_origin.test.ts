/**
 * A hostile page on a third origin, in a real browser, against `fragment-cli serve
 * examples/app.ts`: it tries a cross-site write with the victim's cookie (create an organization)
 * and a login CSRF (sign the victim in to the attacker's account), each with every way a page can
 * POST: HTML forms (text/plain and urlencoded), a `no-cors` fetch and a JSON fetch with
 * credentials. Both fail: the browser refuses the JSON fetch (no CORS for that origin), the
 * server answers the rest 4xx, and nothing changes on the server.
 *
 * All origins are on 127.0.0.1 (other ports): the same site, so the browser does send the
 * `SameSite=Lax` cookie; only the server's origin and content-type rules stand in the way.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { launchChromium, NO_BROWSER } from "../helpers/browser.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";

const app = fileURLToPath(new URL("../../examples/app.ts", import.meta.url));
const slow = { timeout: 180_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

/**
 * The hostile page: `runAttack(url, json)` POSTs the JSON text to `url` four ways and answers
 * what the page itself could tell of each.
 */
const HOSTILE_PAGE = `<!doctype html>
<title>Win a prize</title>
<script>
async function submitForm(url, enctype, name, value) {
  const frame = document.createElement("iframe");
  frame.name = "f" + Math.random().toString(36).slice(2);
  document.body.append(frame);
  const form = document.createElement("form");
  form.method = "POST";
  form.action = url;
  form.enctype = enctype;
  form.target = frame.name;
  const input = document.createElement("input");
  input.name = name;
  input.value = value;
  form.append(input);
  document.body.append(form);
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  form.submit();
  await loaded;
  return "submitted";
}
async function attempt(run) {
  try {
    return await run();
  } catch (error) {
    return "blocked: " + error.name;
  }
}
window.runAttack = async (url, json) => {
  // text/plain form: name + "=" + value reads as the JSON text with one extra field.
  const head = json.slice(0, -1) + ',"x":"';
  return {
    formTextPlain: await attempt(() => submitForm(url, "text/plain", head, '"}')),
    formUrlencoded: await attempt(() =>
      submitForm(url, "application/x-www-form-urlencoded", "json", json)
    ),
    noCorsFetch: await attempt(async () =>
      (await fetch(url, {
        method: "POST",
        mode: "no-cors",
        credentials: "include",
        headers: { "content-type": "text/plain" },
        body: json,
      })).type
    ),
    jsonFetch: await attempt(async () =>
      String((await fetch(url, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: json,
      })).status)
    ),
  };
};
</script>
<p>Congratulations!</p>`;

/** The POST responses (and failed requests) a page saw from `origin`. */
function recordPosts(page: Page, origin: string): { status: number | string; url: string }[] {
  const seen: { status: number | string; url: string }[] = [];
  page.on("response", (response) => {
    const request = response.request();
    if (request.method() === "POST" && response.url().startsWith(origin)) {
      seen.push({ status: response.status(), url: response.url() });
    }
  });
  page.on("requestfailed", (request) => {
    if (request.method() === "POST" && request.url().startsWith(origin)) {
      seen.push({ status: `failed: ${request.failure()?.errorText}`, url: request.url() });
    }
  });
  return seen;
}

/** A page of the API's own origin, for the victim's legitimate requests. */
async function ownPage(context: BrowserContext, api: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${api}/api/auth/session`);
  return page;
}

/** `fetch` from a page: the status and the JSON body. */
function pageFetch(
  page: Page,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async ({ path, init }) => {
    const response = await fetch(path, {
      method: init.method ?? "GET",
      headers: init.json === undefined ? {} : { "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    return { status: response.status, body: await response.json() };
  }, { path, init });
}

describe("a hostile third origin in a real browser", () => {
  const dir = tempDir();
  let api: ServeProcess | undefined;
  let hostile: LocalServer | undefined;
  let browser: Browser | undefined;
  // Started inside the tests, not a hook: Bun's hooks ignore the timeout option.
  let started: Promise<void> | undefined;
  const setup = (): Promise<void> =>
    started ??= (async () => {
      api = await startServe([app, "--port", "0", "--host", "127.0.0.1"], { cwd: dir.path });
      hostile = await listenLocal(() =>
        new Response(HOSTILE_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
      );
      browser = await launchChromium();
    })();
  after(async () => {
    await browser?.close();
    await hostile?.close();
    await api?.stop();
    dir.remove();
  });

  /** Runs the hostile page's attack in `context` and checks the browser and server refused it. */
  async function attack(context: BrowserContext, path: string, json: unknown): Promise<void> {
    const page = await context.newPage();
    const posts = recordPosts(page, api!.url);
    await page.goto(`${hostile!.url}/`);
    const outcome = await page.evaluate(
      ([url, text]) =>
        (globalThis as unknown as {
          runAttack(url: string, json: string): Promise<Record<string, string>>;
        }).runAttack(url, text),
      [`${api!.url}${path}`, JSON.stringify(json)],
    );
    // The JSON fetch needs a CORS preflight this origin does not pass: the browser sends nothing.
    assert.equal(outcome.jsonFetch, "blocked: TypeError", JSON.stringify(outcome));
    assert.equal(outcome.formTextPlain, "submitted");
    assert.equal(outcome.formUrlencoded, "submitted");
    // The others reached the server, and it refused each one.
    const answered = posts.filter((p) => typeof p.status === "number");
    assert.ok(answered.length >= 3, JSON.stringify(posts));
    for (const post of answered) {
      assert.ok(post.status === 403 || post.status === 415, JSON.stringify(posts));
    }
    await page.close();
  }

  it("cannot write with the victim's cookie (cross-site write)", slow, async () => {
    await setup();
    const victim = await browser!.newContext();
    const own = await ownPage(victim, api!.url);
    const signUp = await pageFetch(own, "/api/auth/sign-up", {
      method: "POST",
      json: { email: "victim@example.com", password: PASSWORD },
    });
    assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
    assert.ok((await victim.cookies()).some((c) => c.name === "service_auth"));

    await attack(victim, "/api/auth/organizations", { name: "Pwned", slug: "pwned" });

    const me = await pageFetch(own, "/api/auth/me");
    assert.equal(me.status, 200);
    const body = me.body as { user: { email: string }; organizations: unknown[] };
    assert.equal(body.user.email, "victim@example.com", "still the victim");
    assert.deepEqual(body.organizations, [], "no organization was created");
    // The victim's own page can create one: the refusals above are not a broken route.
    const own201 = await pageFetch(own, "/api/auth/organizations", {
      method: "POST",
      json: { name: "Mine", slug: "mine" },
    });
    assert.ok(own201.status === 200 || own201.status === 201, JSON.stringify(own201));
    await victim.close();
  });

  it("cannot sign the victim in to the attacker's account (login CSRF)", slow, async () => {
    await setup();
    // The attacker's account, made outside any browser.
    const made = await fetch(`${api!.url}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "attacker@example.com", password: PASSWORD }),
    });
    assert.equal(made.status, 200, await made.text());

    const victim = await browser!.newContext();
    await attack(victim, "/api/auth/sign-in", {
      email: "attacker@example.com",
      password: PASSWORD,
    });

    assert.deepEqual(
      (await victim.cookies()).filter((c) => c.name === "service_auth"),
      [],
      "no credential cookie was set",
    );
    const own = await ownPage(victim, api!.url);
    assert.equal((await pageFetch(own, "/api/auth/me")).status, 401, "the victim is signed out");
    // The same sign-in from the API's own origin works: the refusal is the origin's.
    const signIn = await pageFetch(own, "/api/auth/sign-in", {
      method: "POST",
      json: { email: "attacker@example.com", password: PASSWORD },
    });
    assert.equal(signIn.status, 200);
    await victim.close();
  });
});
