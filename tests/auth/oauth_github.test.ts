// deno-lint-ignore-file no-explicit-any
// The GitHub preset (issue 40): plain OAuth 2 against a local stand-in for GitHub's documented
// endpoints (`/login/oauth/authorize`, `/login/oauth/access_token`, which answers form-encoded
// unless asked for JSON and refuses a code with 200 and an `error` member; `/user`, whose `email`
// may be null; `/user/emails`, entries `{ email, primary, verified }`) under `webOrigin` and an
// Enterprise-style `apiOrigin`. The account is GitHub's numeric id; the address the verified
// primary one. Abuse: a replayed code, no usable address, a failing API.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { githubProvider } from "../../src/auth/mod.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { httpBrowser } from "../helpers/http_browser.ts";
import { type GitHubStandIn, startGitHubStandIn } from "../helpers/github_stand_in.ts";
import { accountModule } from "./helpers/account.ts";
import { uniqueEmail } from "./helpers/http.ts";
import { APP, errorOf, jsonIn, meOf } from "./helpers/oauth.ts";

const db = pgliteAdapter();
let github: GitHubStandIn;
let module: Awaited<ReturnType<typeof accountModule>>["module"];

before(async () => {
  github = await startGitHubStandIn();
  ({ module } = await accountModule(db, {
    secret: "oauth-tests-secret-0123456789-abcdefgh",
    oauth: {
      providers: {
        github: githubProvider({
          ...github.client,
          webOrigin: github.url,
          apiOrigin: `${github.url}/api/v3`,
        }),
      },
    },
  }));
});
after(async () => {
  await github.close();
  await db.close();
});

async function counts() {
  const [row] = await db.query<any>(
    `SELECT (SELECT count(*) FROM auth.users)::int AS users,
            (SELECT count(*) FROM auth.identities)::int AS identities,
            (SELECT count(*) FROM auth.sessions)::int AS sessions`,
  );
  return row;
}

/** Signs in with GitHub in a fresh browser; the browser, the callback URL and its answer. */
async function signIn() {
  const browser = httpBrowser({ origin: APP, fetch: (request) => module.fetch(request) });
  const start = `${APP}/api/auth/oauth/github/authorize?redirectTo=/app`;
  const toCallback = await browser.follow(start, (next) => next.includes("/callback"));
  assert.ok(toCallback.location?.includes("/callback"), `${toCallback.status} ${toCallback.text}`);
  const answer = await browser.request("GET", toCallback.location!);
  return { browser, callback: toCallback.location!, answer };
}

describe("githubProvider against a stand-in for GitHub's endpoints", () => {
  it("signs up with the verified primary address; GitHub's numeric id is the account", async () => {
    github.account.id = 4100;
    const email = uniqueEmail("octo");
    github.account.emails = [
      { email: uniqueEmail("secondary"), primary: false, verified: true },
      { email, primary: true, verified: true },
    ];
    const { browser, answer } = await signIn();
    assert.equal(errorOf(answer), null);
    assert.equal(new URL(answer.location!).pathname, "/app");
    const me = await meOf(browser);
    assert.equal(me.body.user.email, email);
    assert.equal(me.body.user.emailVerified, true);
    const [identity] = await db.query<any>(
      `SELECT provider, subject, email FROM auth.identities WHERE email = $1`,
      [email],
    );
    assert.deepEqual(identity, { provider: "github", subject: "4100", email });
    // The token request: client_secret_post, the PKCE verifier, and JSON asked for.
    const request = github.tokenRequests.at(-1)!;
    assert.match(request.accept ?? "", /application\/json/);
    assert.equal(request.form.get("client_secret"), github.client.clientSecret);
    assert.match(request.form.get("code_verifier") ?? "", /^[A-Za-z0-9_-]{43}$/);
    // Again: the same account, even after the address changed at GitHub.
    github.account.emails = [{ email: uniqueEmail("renamed"), primary: true, verified: true }];
    const again = await signIn();
    assert.equal(errorOf(again.answer), null);
    assert.equal((await meOf(again.browser)).body.user.id, me.body.user.id);
    const listed = (await jsonIn(again.browser, "GET", "/identities")).body.identities;
    assert.equal(
      listed[0].email,
      github.account.emails[0].email,
      "the identity keeps the latest address",
    );
  });

  it("an unverified primary address makes an unverified account", async () => {
    github.account.id = 4200;
    const email = uniqueEmail("unverified-octo");
    github.account.emails = [{ email, primary: true, verified: false }];
    const { browser, answer } = await signIn();
    assert.equal(errorOf(answer), null);
    assert.equal((await meOf(browser)).body.user.emailVerified, false);
  });

  it("no primary address: OAUTH_EMAIL_MISSING, nothing created", async () => {
    github.account.id = 4300;
    github.account.emails = [{ email: uniqueEmail("not-primary"), primary: false, verified: true }];
    const before = await counts();
    const { answer } = await signIn();
    assert.equal(errorOf(answer), "OAUTH_EMAIL_MISSING");
    assert.deepEqual(await counts(), before);
  });

  it("a replayed code: GitHub's 200 with an error is refused (OAUTH_FAILED)", async () => {
    github.account.id = 4400;
    github.account.emails = [{ email: uniqueEmail("replayed"), primary: true, verified: true }];
    const first = await signIn();
    assert.equal(errorOf(first.answer), null);
    // A new flow in the same browser, the old code under its state.
    await jsonIn(first.browser, "POST", "/sign-out");
    const started = await first.browser.request(
      "GET",
      `${APP}/api/auth/oauth/github/authorize`,
    );
    const state = new URL(started.location!).searchParams.get("state")!;
    const replay = new URL(first.callback);
    replay.searchParams.set("state", state);
    const before = await counts();
    const answer = await first.browser.request("GET", replay.href);
    assert.equal(errorOf(answer), "OAUTH_FAILED");
    assert.deepEqual(await counts(), before);
  });

  it("a failing /user: OAUTH_FAILED, nothing created", async () => {
    github.account.id = 4500;
    github.account.emails = [{ email: uniqueEmail("down"), primary: true, verified: true }];
    github.account.userStatus = 502;
    const before = await counts();
    try {
      const { answer } = await signIn();
      assert.equal(errorOf(answer), "OAUTH_FAILED");
    } finally {
      github.account.userStatus = 200;
    }
    assert.deepEqual(await counts(), before);
  });
});
